#!/usr/bin/env bash
# profgen merge vs llvm-profdata-19 merge on the same 2,000 sqlite raws:
# wall time and peak RSS side by side with their ratio, then profgen's peak
# RSS at 200 and at 2,000 inputs (it should stay flat). Builds the 2,000
# raws on first use (INSTR_BENCH=1 scripts/testdata.d/30-instr.sh).
set -euo pipefail
bin=${1:?usage: 30-merge.sh PROFGEN TESTDATA}
data=${2:?usage: 30-merge.sh PROFGEN TESTDATA}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v llvm-profdata-19 >/dev/null; then
	echo "30-merge: llvm-profdata-19 not found; skipping"
	exit 0
fi
INSTR_BENCH=1 bash "$here/../testdata.d/30-instr.sh" "$data" >/dev/null
raws=$data/instr/bench/raw
[ -d "$raws" ] || { echo "30-merge: no bench raws; skipping"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ls "$raws"/*.profraw >"$tmp/all"
head -200 "$tmp/all" >"$tmp/200"
n=$(wc -l <"$tmp/all")

# measure CMD...: prints "wall-seconds peak-KB cpu-seconds" of one run (CPU
# time = user + system, steadier than wall time on a shared machine).
measure() {
	/usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$tmp/time"
}
cat "$tmp/all" >/dev/null # warm the page cache for both tools alike
xargs cat <"$tmp/all" >/dev/null
read -r lt lm lc < <(measure llvm-profdata-19 merge -o "$tmp/llvm.profdata" -f "$tmp/all")
read -r pt pm pc < <(measure "$bin" merge -o "$tmp/profgen.profdata" -f "$tmp/all")
read -r st sm sc < <(measure "$bin" merge -o "$tmp/p200.profdata" -f "$tmp/200")
same=no
cmp -s "$tmp/llvm.profdata" "$tmp/profgen.profdata" && same=byte-identical
printf '30-merge: %d raws (sqlite, clang-19 -fprofile-generate), %s cores\n' "$n" "$(nproc)"
printf '  %-28s %8s %8s %12s\n' tool "wall s" "cpu s" "peak RSS KB"
printf '  %-28s %8s %8s %12s\n' "llvm-profdata-19 merge" "$lt" "$lc" "$lm"
printf '  %-28s %8s %8s %12s\n' "profgen merge" "$pt" "$pc" "$pm"
awk -v lt="$lt" -v pt="$pt" -v lc="$lc" -v pc="$pc" -v lm="$lm" -v pm="$pm" \
	'BEGIN { printf "  ratio llvm/profgen: wall %.2fx, cpu %.2fx, RSS %.2fx\n", lt/pt, lc/pc, lm/pm }'
printf '  profgen peak RSS: %s KB at 200 inputs, %s KB at %d inputs\n' "$sm" "$pm" "$n"
printf '  outputs: %s\n' "$same"
