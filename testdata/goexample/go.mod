module goexample

go 1.26
