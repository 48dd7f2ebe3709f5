#!/usr/bin/env bash
# Real call-stack recordings of two non-PIE programs whose hot code lies
# far above 0x800000, for the misattribution of DSO-relative call-chain
# addresses (issue 9); layout: testdata/README.md. Into DIR/nonpie/:
#
#   nonpie     testdata/programs/nonpie.c (+ nonpie-pad.S: 6 MiB of cold
#              functions first), clang-19 -O2 -g -fno-omit-frame-pointer
#              -no-pie; calls snprintf and memcpy through the PLT
#   nonpiego   testdata/nonpie-go, go build -trimpath (non-PIE by default),
#              over 8 MiB of text; >= 20k samples (make bench uses it)
#
# Each is recorded with perf record -e cpu-clock -F 4999 -g (fixed
# arguments; the samples themselves are real, so they differ from run to
# run), then perf script and perf report print it. A program is skipped
# when its compiler is missing; everything when perf is. Cached: a program
# is redone only when its sources or this script are newer than its .done.
set -euo pipefail
out=${1:?usage: 70-nonpie.sh DIR}/nonpie
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/scripts/testdata.d/$(basename "$0")
. "$root/scripts/versions.sh" # newer_than
if ! command -v perf >/dev/null; then
	echo "70-nonpie: no perf, skipped"
	exit 0
fi
mkdir -p "$out"
cd "$out"

# record PROG ARGS...: perf record ./PROG ARGS, then the texts beside it.
record() {
	local prog=$1
	shift
	rm -f "$prog".perf.data "$prog".*.txt "$prog".script
	if ! perf record -q -N -e cpu-clock -F 4999 -g -o "$prog.perf.data.tmp" -- "./$prog" "$@" >/dev/null; then
		echo "70-nonpie: perf record failed (perf_event_paranoid?), $prog skipped"
		rm -f "$prog.perf.data.tmp"
		return 0
	fi
	mv "$prog.perf.data.tmp" "$prog.perf.data"
	chmod 644 "$prog.perf.data"
	perf script -i "$prog.perf.data" -F pid,time,period,event,ip,sym,dso \
		--show-mmap-events --show-task-events >"$prog.script" 2>/dev/null
	# Exact sample counts per symbol: the binary's own functions (PLT stubs
	# as name@plt included), and every DSO's.
	perf report -i "$prog.perf.data" --no-children --sort sym --stdio -g none \
		-F overhead,sample,sym --dsos "$prog" >"$prog.report.txt" 2>/dev/null
	perf report -i "$prog.perf.data" --no-children --sort dso,sym --stdio -g none \
		-F overhead,sample,dso,sym >"$prog.report-dso.txt" 2>/dev/null
	printf '%s\n' "$*" >"$prog.args"
	touch "$prog.done"
	echo "70-nonpie: $prog: $(grep -m1 '^# Samples' "$prog.report.txt"), $(du -sh "$prog.perf.data" | cut -f1)"
}

progs=$root/testdata/programs
if ! command -v clang-19 >/dev/null; then
	echo "70-nonpie: no clang-19, nonpie skipped"
elif newer_than nonpie.done "$progs"/nonpie.c "$progs"/nonpie-pad.S "$progs"/build-nonpie.sh "$self"; then
	"$progs"/build-nonpie.sh "$out"
	record nonpie 250000
else
	echo "70-nonpie: nonpie: up to date"
fi

gosrc=$root/testdata/nonpie-go
if ! command -v go >/dev/null; then
	echo "70-nonpie: no go, nonpiego skipped"
elif newer_than nonpiego.done "$gosrc"/*.go "$gosrc"/go.mod "$self"; then
	(cd "$gosrc" && go build -trimpath -o "$out/nonpiego.tmp" .)
	mv nonpiego.tmp nonpiego
	record nonpiego 1900
else
	echo "70-nonpie: nonpiego: up to date"
fi
