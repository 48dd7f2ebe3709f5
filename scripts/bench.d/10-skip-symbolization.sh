#!/usr/bin/env bash
# Unsymbolized profile (--skip-symbolization) of the largest LBR trace:
# profgen against llvm-profgen-19, wall time and peak RSS side by side with
# their ratio, and whether the two outputs are byte-identical.
# BENCH_SCRIPT / BENCH_BINARY override the trace and binary.
set -euo pipefail
bin=${1:?usage: 10-skip-symbolization.sh PROFGEN TESTDATA}
data=${2:?usage: 10-skip-symbolization.sh PROFGEN TESTDATA}
script=${BENCH_SCRIPT:-$(find "$data/lbr" -name '*.script' -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)}
if [ -z "$script" ]; then
	echo "10-skip-symbolization: no LBR trace under $data/lbr; run make testdata"
	exit 0
fi
if ! command -v llvm-profgen-19 >/dev/null; then
	echo "10-skip-symbolization: llvm-profgen-19 not installed"
	exit 0
fi
# The profiled binary is the first executable mapping of the trace.
binary=${BENCH_BINARY:-$(awk '/PERF_RECORD_MMAP2/ && / r-xp / { print $NF; exit }' "$script")}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# measure CMD...: prints "seconds peak-KiB" of CMD.
measure() {
	/usr/bin/time -f '%e %M' -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; return 1; }
	cat "$out/time"
}

read -r pt pm < <(measure "$bin" --binary="$binary" --perfscript="$script" --skip-symbolization --output="$out/profgen.raw")
read -r rt rm < <(measure llvm-profgen-19 --binary="$binary" --perfscript="$script" --skip-symbolization --output="$out/llvm.raw")
size=$(du -m "$script" | cut -f1)
echo "== unsymbolized profile (--skip-symbolization): $(basename "$binary"), ${size} MB trace"
printf '%-16s %10s %14s\n' tool 'wall s' 'peak RSS MiB'
printf '%-16s %10s %14d\n' profgen "$pt" $((pm / 1024))
printf '%-16s %10s %14d\n' llvm-profgen-19 "$rt" $((rm / 1024))
awk -v p="$pt" -v r="$rt" -v pm="$pm" -v rm="$rm" \
	'BEGIN { printf "speed-up %.2fx, peak RSS ratio %.2f (profgen/llvm-profgen)\n", r / (p > 0 ? p : 0.01), pm / rm }'
if cmp -s "$out/profgen.raw" "$out/llvm.raw"; then
	echo "outputs: byte-identical"
else
	echo "outputs: DIFFER"
fi
