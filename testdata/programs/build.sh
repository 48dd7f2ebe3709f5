#!/usr/bin/env bash
# Builds the small test binaries committed next to their sources, in bin/.
# Run it again after changing a source (needs clang-19 and gcc-12):
#
#   wordfreq         clang-19 -O2 -g, PIE
#   wordfreq-nopie   clang-19 -O2 -g -no-pie (ET_EXEC at 0x400000)
#   wordfreq-cet     clang-19 -O2 -g -fcf-protection (endbr64 at function entries)
#   wordfreq-gcc     gcc-12 -O2 -g, PIE
#   recurse          clang-19 -O2 -g, PIE
#   coldsplit-gcc    gcc-12 -O2 -g -fcf-protection, PIE (checksum.cold in
#                    .text.unlikely, far from checksum; mix in .text.hot)
#   neverrun-gcc     gcc-12 -O2 -g, PIE (its trace: record-lbr.sh neverrun-gcc 10 1000)
#   anonns-gcc       g++-12 -O2 -g, PIE (C++ in an anonymous namespace: no
#                    DW_AT_linkage_name, named by its ELF symbols)
#   strappend-gcc    g++-12 -O2 -g, PIE (hot calls through the PLT stub of
#                    a mangled libstdc++ function)
#
# Source paths in the DWARF are relative (-fdebug-prefix-map), so the
# output does not depend on where the repository is checked out.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p bin
map=(-fdebug-prefix-map="$PWD"=.)
clang-19 -O2 -g "${map[@]}" wordfreq.c -o bin/wordfreq
clang-19 -O2 -g "${map[@]}" -fno-pie -no-pie wordfreq.c -o bin/wordfreq-nopie
clang-19 -O2 -g "${map[@]}" -fcf-protection wordfreq.c -o bin/wordfreq-cet
gcc-12 -O2 -g "${map[@]}" wordfreq.c -o bin/wordfreq-gcc
clang-19 -O2 -g "${map[@]}" recurse.c -o bin/recurse
gcc-12 -O2 -g "${map[@]}" -fcf-protection coldsplit.c -o bin/coldsplit-gcc
gcc-12 -O2 -g "${map[@]}" neverrun.c -o bin/neverrun-gcc
g++-12 -O2 -g "${map[@]}" anonns.cc -o bin/anonns-gcc
g++-12 -O2 -g "${map[@]}" strappend.cc -o bin/strappend-gcc
ls -l bin
