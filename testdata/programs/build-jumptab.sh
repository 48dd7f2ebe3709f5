#!/usr/bin/env bash
# build-jumptab.sh DIR: builds jumptab.c as BOLT wants a binary it
# reorders, with relocations kept (-Wl,--emit-relocs), with clang-22 into
# DIR (created if missing):
#   DIR/jumptab        PIE: PIC jump tables (lea table(%rip); movslq; add; jmp *%reg)
#   DIR/jumptab-nopie  ET_EXEC: absolute jump tables (jmp *table(,%reg,8))
# internal/boltprof's TestJumpTableFdata runs it; no debug info (BOLT's
# fdata needs none).
set -euo pipefail
out=${1:?usage: build-jumptab.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
clang-22 -O2 -g0 -Wl,--emit-relocs "$here/jumptab.c" -o "$out/jumptab"
clang-22 -O2 -g0 -fno-pie -no-pie -Wl,--emit-relocs "$here/jumptab.c" -o "$out/jumptab-nopie"
