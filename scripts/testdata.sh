#!/usr/bin/env bash
# Builds the large test programs and traces that are never committed, into
# the directory given as $1. Each step skips itself when a tool it needs is
# missing; tests that need its output skip too.
#
# TESTDATA_JOBS=2 runs the steps in two lanes, one per core (a step
# mostly runs one single-threaded tracer or compiler at a time): the LBR
# traces and the steps that reuse their cache (lbrgen, the SQLite package,
# the sqlite binary), and the others; each lane in the steps' order. The
# default, 1, runs every step in turn: the two lanes have not yet had a
# whole run from nothing.
set -euo pipefail
out=${1:?usage: testdata.sh DIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
lbr_lane=" 20-lbr 22-lbr-gcc 80-arm64 80-cs "

# run_lane STEP...: each step in turn, with its time.
run_lane() {
	local step start
	for step; do
		start=$SECONDS
		bash "$step" "$out" || return
		echo "testdata: $(basename "$step" .sh): $((SECONDS - start))s"
	done
}

all=() lbr=() rest=()
for step in "$here"/testdata.d/*.sh; do
	[ -e "$step" ] || continue
	all+=("$step")
	case $lbr_lane in
	*" $(basename "$step" .sh) "*) lbr+=("$step") ;;
	*) rest+=("$step") ;;
	esac
done
start=$SECONDS
if [ "${TESTDATA_JOBS:-1}" = 1 ]; then
	run_lane "${all[@]}"
else
	run_lane "${lbr[@]}" &
	lane=$!
	status=0
	run_lane "${rest[@]}" || status=$?
	wait "$lane" || status=$?
	[ "$status" = 0 ] || exit "$status"
fi
echo "testdata: all steps: $((SECONDS - start))s"
