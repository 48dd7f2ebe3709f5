#!/bin/sh
# Builds the small test binaries committed next to this script.
set -e
cd "$(dirname "$0")"
clang-19 -O2 -g -fdebug-info-for-profiling -no-pie t.c -o t.bin
clang-19 -O2 -g -fdebug-info-for-profiling -fPIE -pie t.c -o t-pie.bin
