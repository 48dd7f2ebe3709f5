module goarm64

go 1.22
