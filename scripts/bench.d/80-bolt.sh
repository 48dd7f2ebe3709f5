#!/usr/bin/env bash
# Acceptance (issue 28): BOLT's fdata from the 81 MB LBR perf.data, profgen
# --format=bolt against perf2bolt-22 on the same file (targets: at least 5x
# faster, peak RSS at most 0.5x), medians of alternating runs; then the two
# fdata files compared as sets of lines. BENCH_RUNS: number of runs (3).
set -euo pipefail
bin=${1:?usage: 80-bolt.sh PROFGEN TESTDATA}
data=${2:?usage: 80-bolt.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
pd=${BENCH_PERFDATA:-$data/lbr/sqlite/bench.perf.data}
perf2bolt=/usr/lib/llvm-22/bin/perf2bolt
if [ ! -s "$pd" ] || ! command -v perf >/dev/null || [ ! -x "$perf2bolt" ]; then
	echo "80-bolt: no $pd, perf or $perf2bolt; skipped"
	exit 0
fi
binary=${BENCH_BINARY:-$data/lbr/sqlite/binary}
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$pd" >/dev/null
echo "== LBR perf.data -> BOLT fdata: $(basename "$binary"), $(du -m "$pd" | cut -f1) MB perf.data"
compare "${BENCH_RUNS:-3}" "profgen --format=bolt" "perf2bolt-22" \
	"$bin" --binary="$binary" --perfdata="$pd" --format=bolt --output="$out/profgen.fdata" -- \
	"$perf2bolt" -p "$pd" -o "$out/perf2bolt.fdata" "$binary"
awk -v wa="$CMP_WALL_A" -v wb="$CMP_WALL_B" -v ra="$CMP_RSS_A" -v rb="$CMP_RSS_B" 'BEGIN {
	s = wb / wa; r = ra / rb
	printf "  targets: >= 5x faster: %.1fx %s; peak RSS <= 0.5x: %.2fx %s\n", s, (s >= 5 ? "met" : "NOT MET"), r, (r <= 0.5 ? "met" : "NOT MET") }'
sort "$out/profgen.fdata" >"$out/a"
sort "$out/perf2bolt.fdata" >"$out/b"
echo "  fdata lines: $(comm -12 "$out/a" "$out/b" | wc -l) equal, $(comm -23 "$out/a" "$out/b" | wc -l) only profgen's, $(comm -13 "$out/a" "$out/b" | wc -l) only perf2bolt's"
