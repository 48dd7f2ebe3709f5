#!/usr/bin/env bash
# Builds nonpie (nonpie.c + nonpie-pad.S) into OUT (default: bin/): clang-19
# -O2 -g -fno-omit-frame-pointer -no-pie, code above 0xa00000, snprintf and
# memcpy called through the PLT. About 7 MB (6 MiB of padding), so it is
# built by scripts/testdata.d/70-nonpie.sh, never committed. Source paths
# in the DWARF are relative (-fdebug-prefix-map).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/bin}
mkdir -p "$out"
cd "$here"
clang-19 -O2 -g -fno-omit-frame-pointer -fno-pie -no-pie -fdebug-prefix-map="$here"=. \
	nonpie.c nonpie-pad.S -o "$out/nonpie.tmp"
mv "$out/nonpie.tmp" "$out/nonpie"
