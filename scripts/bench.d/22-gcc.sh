#!/usr/bin/env bash
# Acceptance (issue 27): LBR perf script -> GCC AutoFDO (--format=gcc) of
# the >= 100 MB sqlite trace beside the LLVM text profile of the same
# trace, medians of alternating runs (target: --format=gcc within 10% of
# --format=text). BENCH_SCRIPT / BENCH_BINARY override the trace and
# binary; BENCH_RUNS the number of runs (5).
set -euo pipefail
bin=${1:?usage: 22-gcc.sh PROFGEN TESTDATA}
data=${2:?usage: 22-gcc.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
script=${BENCH_SCRIPT:-$data/lbr/sqlite/bench.script}
if [ ! -s "$script" ]; then
	echo "22-gcc: no $script; run make bench (00-lbr-data.sh makes it)"
	exit 0
fi
# The profiled binary is the first executable mapping of the trace.
binary=${BENCH_BINARY:-$(awk '/PERF_RECORD_MMAP2/ && / r-xp / { print $NF; exit }' "$script")}
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$script" >/dev/null # page cache
echo "== LBR perf script -> GCC AutoFDO beside LLVM text: $(basename "$binary"), $(du -m "$script" | cut -f1) MB trace"
compare "${BENCH_RUNS:-5}" "profgen --format=gcc" "profgen --format=text" \
	"$bin" --binary="$binary" --perfscript="$script" --format=gcc --output="$out/p.afdo" -- \
	"$bin" --binary="$binary" --perfscript="$script" --format=text --output="$out/p.txt"
awk -v g="$CMP_WALL_A" -v t="$CMP_WALL_B" 'BEGIN { printf "  --format=gcc: %+.1f%% wall time against the text row (target: within 10%%)\n", (t > 0 ? 100 * (g / t - 1) : 0) }'
echo "  sizes: $(du -k "$out/p.afdo" | cut -f1) KiB GCC, $(du -k "$out/p.txt" | cut -f1) KiB text"
