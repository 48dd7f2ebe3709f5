package main

import (
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
)

// addGCCFlags registers the flags of --format=gcc (docs/gcc.md).
func addGCCFlags(fs *pflag.FlagSet, o *driver.GCCOptions) {
	fs.Uint32Var(&o.Version, "gcov-version", 0, "profgen: --format=gcc version: 2 (GCC 12 to 15, the default) or 3 (GCC 16: summary, source files)")
	f := fs.VarPF(optionalBool{&o.FoldDiscriminators}, "gcc-fold-discriminators", "", "profgen: --format=gcc with one count per line (the largest of its discriminators'), as GCC 12 reads it; default: for version 2 unless the binary was built by GCC 13 or later, which use discriminators (=false keeps them)")
	f.NoOptDefVal = "true"
	f = fs.VarPF(optionalBool{&o.ZerosAsOne}, "gcc-zeros-as-one", "", "profgen: --format=gcc writes the zero counts of the functions and inlinees GCC 12 finds hot (counts adding up to 2 or more) as 1, to which gcc-12 -O2 reacts the same, but on which it does not crash when it vectorizes a loop around a never-run branch; default: for version 2 (=false keeps the zeros)")
	f.NoOptDefVal = "true"
}
