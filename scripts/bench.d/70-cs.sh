#!/usr/bin/env bash
# Acceptance (issue 12): context-sensitive (CSSPGO) profile of the large
# sqlite hybrid trace (call stacks + LBR, $TESTDATA/cs/sqlite-bench):
# profgen against llvm-profgen-22, unsymbolized (--skip-symbolization) and
# as the default pre-inlined nested profile (--format=text): medians of
# alternating runs of wall time, CPU time and peak RSS with their ratios
# (target: >= 5x faster at no more memory), and whether the outputs are
# byte-identical. BENCH_CS_RUNS: number of runs (3).
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 70-cs.sh PROFGEN TESTDATA}
dir=${2:?usage: 70-cs.sh PROFGEN TESTDATA}/cs/sqlite-bench
. "$(dirname "$0")/../bench-lib.sh"
if [ ! -s "$dir/hybrid.script" ]; then
	echo "70-cs: no $dir/hybrid.script; run scripts/bench.d/05-cs-data.sh"
	exit 0
fi
if ! command -v llvm-profgen-$llvm >/dev/null; then
	echo "70-cs: llvm-profgen-$llvm not installed"
	exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
cat "$dir/hybrid.script" >/dev/null # page cache

# cs NAME FLAGS...: both tools side by side, then the outputs' bytes.
cs() {
	local name=$1
	shift
	echo "== CS $name: sqlite, $(du -m "$dir/hybrid.script" | cut -f1) MB hybrid trace"
	compare "${BENCH_CS_RUNS:-3}" profgen llvm-profgen-$llvm \
		"$bin" --binary="$dir/binary" --perfscript="$dir/hybrid.script" "$@" --output="$out/profgen.out" -- \
		llvm-profgen-$llvm --binary="$dir/binary" --perfscript="$dir/hybrid.script" "$@" --output="$out/llvm.out"
	if cmp -s "$out/profgen.out" "$out/llvm.out"; then
		echo "  outputs: byte-identical"
	else
		echo "  outputs: DIFFER"
	fi
}

cs "unsymbolized profile (--skip-symbolization)" --skip-symbolization
cs "profile (--format=text, pre-inlined, nested)" --format=text
