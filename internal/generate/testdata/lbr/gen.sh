#!/usr/bin/env bash
# Synthesizes the small LBR traces (perf script text) of the test binaries
# with the lbrgen tool (valgrind lackey underneath). Run from the repository
# root: internal/generate/testdata/lbr/gen.sh
set -euo pipefail
dir=internal/generate/testdata
lbrgen() { go run ./tools/lbrgen "$@"; }
lbrgen -binary $dir/cxx-pie.bin -period 997 -single $dir/lbr/cxx-pie.script -- 3000
lbrgen -binary $dir/cxx-nopie-dwarf4.bin -period 997 -single $dir/lbr/cxx-nopie-dwarf4.script -- 3000
lbrgen -binary $dir/gcc-nopie.bin -period 7919 -single $dir/lbr/gcc-nopie.script -- 300000
lbrgen -binary $dir/gcc-pie.bin -period 7919 -single $dir/lbr/gcc-pie.script -- 300000
# The aggregated counters, input of the golden tests.
for b in cxx-pie cxx-nopie-dwarf4 gcc-nopie gcc-pie; do
	llvm-profgen-19 --binary $dir/$b.bin --perfscript $dir/lbr/$b.script --skip-symbolization --output $dir/lbr/$b.raw
done
