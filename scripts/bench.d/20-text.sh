#!/usr/bin/env bash
# Acceptance (issue 15): LBR perf script -> text profile of the >= 100 MB
# sqlite trace: profgen against llvm-profgen-22 --format=text, medians of
# alternating runs with the ratio (target: >= 5x faster, peak RSS <= 0.5x);
# profgen's peak RSS on a tenth of the trace, on all of it and on ten
# copies of it (target: flat, <= 1.2x); then where profgen's time goes
# and how close the two profiles are. BENCH_SCRIPT / BENCH_BINARY
# override the trace and binary; BENCH_RUNS the number of runs (5).
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 20-text.sh PROFGEN TESTDATA}
data=${2:?usage: 20-text.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
script=${BENCH_SCRIPT:-$data/lbr/sqlite/bench.script}
[ -s "$script" ] || script=$(find "$data/lbr" -name '*.script' -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)
if [ -z "$script" ]; then
	echo "20-text: no LBR trace under $data/lbr; run make testdata"
	exit 0
fi
command -v llvm-profgen-$llvm >/dev/null || { echo "20-text: llvm-profgen-$llvm not installed"; exit 0; }
# The profiled binary is the first executable mapping of the trace.
binary=${BENCH_BINARY:-$(awk '/PERF_RECORD_MMAP2/ && / r-xp / { print $NF; exit }' "$script")}
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$script" >/dev/null # page cache
echo "== LBR perf script -> text: $(basename "$binary"), $(du -m "$script" | cut -f1) MB trace"
compare "${BENCH_RUNS:-5}" profgen llvm-profgen-$llvm \
	"$bin" --binary="$binary" --perfscript="$script" --format=text --output="$out/profgen.txt" -- \
	llvm-profgen-$llvm --binary="$binary" --perfscript="$script" --format=text --output="$out/llvm.txt"
# A tenth of the trace: the same lines, cut at a sample.
lines=$(wc -l <"$script")
head -n $((lines / 10)) "$script" >"$out/tenth.script"
# median_rss CMD...: the median peak RSS (KiB) of three runs.
median_rss() {
	for _ in 1 2 3; do peak_rss "$@"; done | sort -n | sed -n 2p
}
small=$(median_rss "$bin" --binary="$binary" --perfscript="$out/tenth.script" --format=text --output="$out/tenth.txt")
large=$(median_rss "$bin" --binary="$binary" --perfscript="$script" --format=text --output="$out/all.txt")
awk -v s="$small" -v l="$large" 'BEGIN { printf "  profgen peak RSS (median of 3): %d MiB on a tenth of the trace, %d MiB on all of it: %.2fx for 10x the input\n", s / 1024, l / 1024, l / s }'
# Production size: ten copies of the trace, one after the other (the text
# is mapped: its pages must leave memory as it is parsed).
for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$script"; done >"$out/ten.script"
huge=$(median_rss "$bin" --binary="$binary" --perfscript="$out/ten.script" --format=text --output="$out/ten.txt")
awk -v l="$large" -v h="$huge" -v mb="$(du -m "$out/ten.script" | cut -f1)" 'BEGIN { printf "  profgen peak RSS (median of 3): %d MiB on ten copies of the trace (%d MB): %.2fx for 10x the trace\n", h / 1024, mb, h / l }'
rm -f "$out/ten.script"
llvm-profdata-$llvm overlap --sample "$out/llvm.txt" "$out/profgen.txt" 2>&1 |
	grep -E 'Whole program profile similarity|Whole program sample overlap' | sed 's/^/  /' || true
"$bin" --binary="$binary" --perfscript="$script" --format=text --output="$out/p.txt" --cpuprofile="$out/cpu.prof" -q
echo "  -- where profgen's time goes (top of its CPU profile)"
go tool pprof -top -nodecount=12 "$bin" "$out/cpu.prof" 2>/dev/null | tail -n +6 | sed 's/^/  /'
