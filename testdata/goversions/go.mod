module goversions

go 1.20
