#!/bin/sh
# Builds testdata/programs/propeller.c and propeller2.c as the Propeller end-to-end test
# does (internal/driver/propeller_test.go): CC (default clang-22) with the
# basic-block address map, linked by lld-22 (clang-19 comes without lld).
# More flags (the rebuild's -fbasic-block-sections=list=... and
# -Wl,--symbol-ordering-file=...) follow CC.
# Usage: build-propeller.sh OUT [CC [FLAGS...]]
set -eu
out=$1
cc=${2:-clang-22}
[ $# -ge 2 ] && shift 2 || shift $#
dir=$(dirname "$0")
exec "$cc" -O2 -gmlt -ffunction-sections -fbasic-block-address-map \
	--ld-path="$(command -v ld.lld-22)" "$@" "$dir/propeller.c" "$dir/propeller2.c" -o "$out"
