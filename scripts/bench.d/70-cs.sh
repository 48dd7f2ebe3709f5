#!/usr/bin/env bash
# Context-sensitive (CSSPGO) profile of the large sqlite hybrid trace
# (call stacks + LBR, $TESTDATA/cs/sqlite-bench): profgen against
# llvm-profgen-19, unsymbolized (--skip-symbolization) and as the default
# pre-inlined nested profile (--format=text), wall time, CPU time and peak
# RSS side by side with their ratios, and whether the outputs are
# byte-identical.
set -euo pipefail
bin=${1:?usage: 70-cs.sh PROFGEN TESTDATA}
dir=${2:?usage: 70-cs.sh PROFGEN TESTDATA}/cs/sqlite-bench
if [ ! -s "$dir/hybrid.script" ]; then
	echo "70-cs: no $dir/hybrid.script; run scripts/bench.d/05-cs-data.sh"
	exit 0
fi
if ! command -v llvm-profgen-19 >/dev/null; then
	echo "70-cs: llvm-profgen-19 not installed"
	exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# measure CMD...: prints "wall-seconds cpu-seconds peak-KiB" of CMD.
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; return 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$out/time"
}

# compare NAME FLAGS...: one row per tool, the ratios, the outputs' bytes.
compare() {
	local name=$1
	shift
	read -r pw pc pm < <(measure "$bin" --binary="$dir/binary" --perfscript="$dir/hybrid.script" "$@" --output="$out/profgen.out")
	read -r rw rc rm < <(measure llvm-profgen-19 --binary="$dir/binary" --perfscript="$dir/hybrid.script" "$@" --output="$out/llvm.out")
	echo "== CS $name: sqlite, $(du -m "$dir/hybrid.script" | cut -f1) MB hybrid trace"
	printf '%-16s %8s %8s %14s\n' tool 'wall s' 'cpu s' 'peak RSS MiB'
	printf '%-16s %8s %8s %14d\n' profgen "$pw" "$pc" $((pm / 1024))
	printf '%-16s %8s %8s %14d\n' llvm-profgen-19 "$rw" "$rc" $((rm / 1024))
	awk -v pw="$pw" -v rw="$rw" -v pc="$pc" -v rc="$rc" -v pm="$pm" -v rm="$rm" 'BEGIN {
		printf "speed-up %.2fx wall, %.2fx cpu; peak RSS ratio %.2f (profgen/llvm-profgen)\n",
			rw / (pw > 0 ? pw : 0.01), rc / (pc > 0 ? pc : 0.01), pm / rm }'
	if cmp -s "$out/profgen.out" "$out/llvm.out"; then
		echo "outputs: byte-identical"
	else
		echo "outputs: DIFFER"
	fi
}

compare "unsymbolized profile (--skip-symbolization)" --skip-symbolization
compare "profile (--format=text, pre-inlined, nested)" --format=text
