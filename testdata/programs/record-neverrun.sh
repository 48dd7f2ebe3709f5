#!/usr/bin/env bash
# Traces bin/neverrun-gcc (build.sh) with tools/lbrgen under valgrind:
# the exact LBR samples of one run (weigh's loop 10 times a call, 1000
# calls, its branch never), written to neverrun.lbr.script with the binary
# named by its base name. cmd/profgen TestGCCRowNeverRunBranch converts it
# with --format=gcc and compiles neverrun.c with the profile (docs/gcc.md,
# gcc-12's crash on zero counts in vectorized loops). Same bytes on every
# run (seeded; needs valgrind).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/lbrgen" ./tools/lbrgen)
cd "$here"
"$tmp/lbrgen" -binary bin/neverrun-gcc -path neverrun-gcc -seed 1 -period 2000 -depth 16 \
	-single neverrun.lbr.script -- 10 1000
