#!/usr/bin/env bash
# Probe-based text profile of the sqlite pseudo-probe trace (make testdata:
# probe/sqlite): profgen against llvm-profgen-22 as 20-text.sh measures it.
set -euo pipefail
bin=${1:?usage: 25-probe.sh PROFGEN TESTDATA}
data=${2:?usage: 25-probe.sh PROFGEN TESTDATA}
script=$data/probe/sqlite/single.script
if [ ! -s "$script" ]; then
	echo "25-probe: no pseudo-probe trace under $data/probe; run make testdata"
	exit 0
fi
echo "== pseudo-probe build of sqlite: probe-based profile"
BENCH_SCRIPT=$script BENCH_BINARY=$data/probe/sqlite/binary bash "$(dirname "$0")/20-text.sh" "$bin" "$data"
