#!/usr/bin/env bash
# Acceptance (issue 15): profgen merge vs llvm-profdata-22 merge on the
# same 2,000 sqlite raws, medians of alternating runs with the ratio
# (target >= 3x), then profgen's peak RSS at 200 and at 2,000 inputs (it
# should stay flat). Builds the 2,000
# raws on first use (INSTR_BENCH=1 scripts/testdata.d/30-instr.sh).
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 30-merge.sh PROFGEN TESTDATA}
data=${2:?usage: 30-merge.sh PROFGEN TESTDATA}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v llvm-profdata-$llvm >/dev/null; then
	echo "30-merge: llvm-profdata-$llvm not found; skipping"
	exit 0
fi
INSTR_BENCH=1 bash "$here/../testdata.d/30-instr.sh" "$data" >/dev/null
raws=$data/instr/bench/raw
[ -d "$raws" ] || { echo "30-merge: no bench raws; skipping"; exit 0; }
. "$here/../bench-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$_bench_tmp"' EXIT
ls "$raws"/*.profraw >"$tmp/all"
head -200 "$tmp/all" >"$tmp/200"
n=$(wc -l <"$tmp/all")
xargs cat <"$tmp/all" >/dev/null # warm the page cache for both tools alike
echo "== raw merge: $n sqlite raws (clang-19 -fprofile-generate), $(nproc) cores"
compare "${BENCH_RUNS:-5}" "profgen merge" "llvm-profdata-$llvm merge" \
	"$bin" merge -o "$tmp/profgen.profdata" -f "$tmp/all" -- \
	llvm-profdata-$llvm merge -o "$tmp/llvm.profdata" -f "$tmp/all"
small=$(peak_rss "$bin" merge -o "$tmp/p200.profdata" -f "$tmp/200")
printf '  profgen peak RSS: %d MiB at 200 inputs, %d MiB at %d inputs\n' $((small / 1024)) $((CMP_RSS_A / 1024)) "$n"
if cmp -s "$tmp/llvm.profdata" "$tmp/profgen.profdata"; then echo "  outputs: byte-identical"; else echo "  outputs: DIFFER"; fi
