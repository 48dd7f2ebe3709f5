#!/usr/bin/env bash
# Acceptance (issue 15): LBR perf.data -> text, read natively against the
# same file through perf script (--use-perf-script), medians of alternating
# runs (target: native faster), outputs compared; then the native reader
# against perf script record by record on every test recording
# (TestNativeEqualsPerfScript). BENCH_RUNS: number of runs (5).
set -euo pipefail
bin=${1:?usage: 25-perfdata.sh PROFGEN TESTDATA}
data=${2:?usage: 25-perfdata.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
pd=${BENCH_PERFDATA:-$data/lbr/sqlite/bench.perf.data}
if [ ! -s "$pd" ] || ! command -v perf >/dev/null; then
	echo "25-perfdata: no $pd or no perf; skipped"
	exit 0
fi
binary=${BENCH_BINARY:-$data/lbr/sqlite/binary}
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$pd" >/dev/null
echo "== LBR perf.data -> text: $(basename "$binary"), $(du -m "$pd" | cut -f1) MB perf.data"
compare "${BENCH_RUNS:-5}" "profgen (native)" "profgen --use-perf-script" \
	"$bin" --binary="$binary" --perfdata="$pd" --format=text --output="$out/native.txt" -- \
	"$bin" --binary="$binary" --perfdata="$pd" --format=text --output="$out/script.txt" --use-perf-script
if cmp -s "$out/native.txt" "$out/script.txt"; then echo "  outputs: byte-identical"; else echo "  outputs: DIFFER"; fi
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "== native reader = perf script, record by record, on every test recording"
(cd "$root" && PROFGEN_TESTDATA=$data go test -count=1 -run 'TestNativeEqualsPerfScript$' -v ./internal/perfdata 2>&1 |
	grep -E '^\s+--- (PASS|FAIL)|^(ok|FAIL)' | sed 's/^ */  /') || true
