#!/usr/bin/env bash
# Acceptance (issue 36): Propeller's cc and ld profiles from an ~80 MB LBR
# perf.data of sqlite built with -fbasic-block-address-map
# (08-propeller-data.sh), profgen --format=propeller against perf2bolt-22
# on the same file (the Google tool cannot be installed here; perf2bolt
# is the nearest reference; targets: at least 5x faster, less memory),
# medians of alternating runs. BENCH_RUNS: number of runs (3).
set -euo pipefail
bin=${1:?usage: 85-propeller.sh PROFGEN TESTDATA}
data=${2:?usage: 85-propeller.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
dir=$data/lbr/sqlite-propeller
pd=$dir/bench.perf.data
perf2bolt=/usr/lib/llvm-22/bin/perf2bolt
if [ ! -s "$pd" ] || ! command -v perf >/dev/null || [ ! -x "$perf2bolt" ]; then
	echo "85-propeller: no $pd, perf or $perf2bolt; skipped"
	exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$pd" >/dev/null
echo "== LBR perf.data -> Propeller cc and ld profiles: sqlite, $(du -m "$pd" | cut -f1) MB perf.data"
compare "${BENCH_RUNS:-3}" "profgen --format=propeller" "perf2bolt-22" \
	"$bin" --binary="$dir/binary" --perfdata="$pd" --format=propeller --output="$out/" -- \
	"$perf2bolt" -p "$pd" -o "$out/perf2bolt.fdata" "$dir/binary"
awk -v wa="$CMP_WALL_A" -v wb="$CMP_WALL_B" -v ra="$CMP_RSS_A" -v rb="$CMP_RSS_B" 'BEGIN {
	s = wb / wa; r = ra / rb
	printf "  targets: >= 5x faster: %.1fx %s; less memory: %.2fx %s\n", s, (s >= 5 ? "met" : "NOT MET"), r, (r < 1 ? "met" : "NOT MET") }'
echo "  $(grep -c '^f ' "$out/cc_profile.txt") hot functions, $(wc -l <"$out/ld_profile.txt") symbols ordered"
