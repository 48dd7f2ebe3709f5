#!/usr/bin/env bash
# Text profile of the largest LBR trace: profgen against llvm-profgen-19
# --format=text, wall time and peak RSS side by side, then where profgen's
# time goes (its CPU profile) and how close the two profiles are.
# BENCH_SCRIPT / BENCH_BINARY override the trace and binary.
set -euo pipefail
bin=${1:?usage: 20-text.sh PROFGEN TESTDATA}
data=${2:?usage: 20-text.sh PROFGEN TESTDATA}
script=${BENCH_SCRIPT:-$(find "$data/lbr" -name '*.script' -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)}
if [ -z "$script" ]; then
	echo "20-text: no LBR trace under $data/lbr; run make testdata"
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

read -r pt pm < <(measure "$bin" --binary="$binary" --perfscript="$script" --format=text \
	--output="$out/profgen.txt" --cpuprofile="$out/cpu.prof")
read -r rt rm < <(measure llvm-profgen-19 --binary="$binary" --perfscript="$script" --format=text \
	--output="$out/llvm.txt")
size=$(du -m "$script" | cut -f1)
echo "== text profile: $(basename "$binary"), ${size} MB trace"
printf '%-16s %10s %14s\n' tool 'wall s' 'peak RSS MiB'
printf '%-16s %10s %14d\n' profgen "$pt" $((pm / 1024))
printf '%-16s %10s %14d\n' llvm-profgen-19 "$rt" $((rm / 1024))
awk -v p="$pt" -v r="$rt" -v pm="$pm" -v rm="$rm" \
	'BEGIN { printf "speed-up %.2fx, peak RSS ratio %.2f (profgen/llvm-profgen)\n", r / p, pm / rm }'
llvm-profdata-19 overlap --sample "$out/llvm.txt" "$out/profgen.txt" 2>&1 |
	grep -E 'Whole program profile similarity|Whole program sample overlap' || true
echo "-- where profgen's time goes (top of its CPU profile)"
go tool pprof -top -nodecount=15 "$bin" "$out/cpu.prof" 2>/dev/null | tail -n +6
