#!/usr/bin/env bash
# Reading large sample profiles: profgen show against llvm-profdata-22 show
# --sample on the same synthetic profile (20000 functions with inlinees), in
# text and extbinary. Prints wall seconds and peak RSS (KB) side by side.
set -euo pipefail
llvm=${BENCH_LLVM:-22} # the reference tools' release (issue 33: 22; 19 for the older rows)
bin=${1:?usage: 40-sampleprof.sh PROFGEN TESTDATA}
data=${2:?usage: 40-sampleprof.sh PROFGEN TESTDATA}
ref=$(command -v llvm-profdata-$llvm) || { echo "sampleprof: llvm-profdata-$llvm missing, skipped"; exit 0; }
dir="$data/sampleprof-bench"
mkdir -p "$dir"
if [ ! -s "$dir/big.txt" ]; then
	awk 'BEGIN {
		srand(1)
		for (f = 0; f < 20000; f++) {
			printf "_Z4func%di:%d:%d\n", f, 1000 + f, f % 97
			for (l = 1; l <= 20; l++) printf " %d: %d _Z4func%di:%d\n", l, int(rand() * 1000), int(rand() * 20000), int(rand() * 50)
			printf " 21: _Z6inlineei:500\n  1: %d\n  2.1: %d\n", int(rand() * 300), int(rand() * 200)
		}
	}' >"$dir/big.txt"
	"$ref" merge --sample --extbinary "$dir/big.txt" -o "$dir/big.extbinary"
fi
measure() { # prints "seconds peakKB"
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null
	cat "$dir/time"
}
for f in big.txt big.extbinary; do
	read -r pt pm < <(measure "$bin" show "$dir/$f")
	read -r rt rm < <(measure "$ref" show --sample --topn=10 "$dir/$f")
	awk -v ref="llvm-profdata-$llvm" -v f="$f" -v pt="$pt" -v pm="$pm" -v rt="$rt" -v rm="$rm" 'BEGIN {
		printf "sampleprof read %-14s profgen %6.2fs %8d KB | %s %6.2fs %8d KB | time x%.2f rss x%.2f\n",
			f, pt, pm, ref, rt, rm, (rt > 0 ? pt / rt : 0), (rm > 0 ? pm / rm : 0)
	}'
done
