#!/bin/sh
# Builds testdata/programs/propeller.c as the Propeller end-to-end test
# does (internal/driver/propeller_test.go): CC (default clang-22) with the
# basic-block address map, linked by lld. Usage: build-propeller.sh OUT [CC]
set -eu
out=$1
cc=${2:-clang-22}
dir=$(dirname "$0")
"$cc" -O2 -gmlt -ffunction-sections -fbasic-block-address-map -fuse-ld=lld "$dir/propeller.c" -o "$out"
