module nonpiego

go 1.26
