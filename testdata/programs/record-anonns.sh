#!/usr/bin/env bash
# Traces bin/anonns-gcc (build.sh) with tools/lbrgen under valgrind:
# the exact LBR samples of one run (run's loop 2000 times: the virtual
# eval methods of the anonymous namespace), written to anonns.lbr.script
# with the binary named by its base name. cmd/profgen
# TestGCCRowAnonymousNamespace converts it with --format=gcc and compiles
# anonns.cc with the profile (docs/gcc.md). Same bytes on every run
# (seeded; needs valgrind).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/lbrgen" ./tools/lbrgen)
cd "$here"
"$tmp/lbrgen" -binary bin/anonns-gcc -path anonns-gcc -seed 1 -period 2000 -depth 16 \
	-single anonns.lbr.script -- 2000
