#!/usr/bin/env bash
# Benchmarks profgen against the reference tools, side by side in one run.
set -euo pipefail
bin=${1:?usage: bench.sh PROFGEN TESTDATA}
data=${2:?usage: bench.sh PROFGEN TESTDATA}
here=$(cd "$(dirname "$0")" && pwd)
export BENCH_PROFGEN=$bin
# BENCH_BASE=REV (make bench BASE=REV): profgen of that revision, built
# here, runs every profgen row beside this one (bench-lib.sh's compare).
if [ -n "${BENCH_BASE:-}" ]; then
	src=$(mktemp -d)
	git -C "$here/.." archive "$BENCH_BASE" | tar -x -C "$src"
	(cd "$src" && go build -o "$src/profgen-base" ./cmd/profgen)
	export BENCH_BASELINE=$src/profgen-base
	echo "== baseline: profgen at $BENCH_BASE ($(git -C "$here/.." rev-parse --short "$BENCH_BASE"))"
fi
for b in "$here"/bench.d/*.sh; do
	[ -e "$b" ] || continue
	bash "$b" "$bin" "$data"
done
