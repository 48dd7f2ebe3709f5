#!/usr/bin/env bash
# Acceptance (issue 15): conversion with a large binary (>= 50 MB of code,
# full DWARF; 07-bigbinary-data.sh) whose profile touches two of its 34
# compilation units: profgen (DWARF mapped, units loaded on demand)
# against llvm-profgen-22, text profile, medians of alternating runs with
# the ratio (target >= 5x). BENCH_RUNS: number of runs (3).
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 70-bigbinary.sh PROFGEN TESTDATA}
data=${2:?usage: 70-bigbinary.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
dir=$data/bigcpp
[ -s "$dir/trace.script" ] || { echo "70-bigbinary: no $dir/trace.script; skipped"; exit 0; }
command -v llvm-profgen-$llvm >/dev/null || { echo "70-bigbinary: llvm-profgen-$llvm not installed"; exit 0; }
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
echo "== large binary: bigcpp, $(size "$dir/bigcpp" | awk 'NR == 2 { printf "%d MB of code", $1 / 1e6 }'), $(du -m "$dir/bigcpp" | cut -f1) MB file -> text"
compare "${BENCH_RUNS:-3}" profgen llvm-profgen-$llvm \
	"$bin" --binary "$dir/bigcpp" --perfscript "$dir/trace.script" --format=text -o "$out/p.txt" -- \
	llvm-profgen-$llvm --binary "$dir/bigcpp" --perfscript "$dir/trace.script" --format=text -o "$out/l.txt"
llvm-profdata-$llvm overlap --sample "$out/l.txt" "$out/p.txt" 2>&1 |
	grep -E 'Whole program profile similarity' | sed 's/^/  /' || true
