#!/usr/bin/env bash
# Benchmarks profgen against the reference tools, side by side in one run.
set -euo pipefail
bin=${1:?usage: bench.sh PROFGEN TESTDATA}
data=${2:?usage: bench.sh PROFGEN TESTDATA}
here=$(cd "$(dirname "$0")" && pwd)
for b in "$here"/bench.d/*.sh; do
	[ -e "$b" ] || continue
	bash "$b" "$bin" "$data"
done
