module goeval

go 1.22
