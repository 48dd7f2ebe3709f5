#!/usr/bin/env bash
# Unsymbolized profile (--skip-symbolization) of the largest LBR trace:
# profgen against llvm-profgen-22, medians of alternating runs with the
# ratio, and whether the two outputs are byte-identical.
# BENCH_SCRIPT / BENCH_BINARY override the trace and binary.
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 10-skip-symbolization.sh PROFGEN TESTDATA}
data=${2:?usage: 10-skip-symbolization.sh PROFGEN TESTDATA}
script=${BENCH_SCRIPT:-$(find "$data/lbr" -name '*.script' -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)}
if [ -z "$script" ]; then
	echo "10-skip-symbolization: no LBR trace under $data/lbr; run make testdata"
	exit 0
fi
if ! command -v llvm-profgen-$llvm >/dev/null; then
	echo "10-skip-symbolization: llvm-profgen-$llvm not installed"
	exit 0
fi
# The profiled binary is the first executable mapping of the trace.
binary=${BENCH_BINARY:-$(awk '/PERF_RECORD_MMAP2/ && / r-xp / { print $NF; exit }' "$script")}
. "$(dirname "$0")/../bench-lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
echo "== unsymbolized profile (--skip-symbolization): $(basename "$binary"), $(du -m "$script" | cut -f1) MB trace"
compare "${BENCH_RUNS:-5}" profgen llvm-profgen-$llvm \
	"$bin" --binary="$binary" --perfscript="$script" --skip-symbolization --output="$out/profgen.raw" -- \
	llvm-profgen-$llvm --binary="$binary" --perfscript="$script" --skip-symbolization --output="$out/llvm.raw"
if cmp -s "$out/profgen.raw" "$out/llvm.raw"; then echo "  outputs: byte-identical"; else echo "  outputs: DIFFER"; fi
