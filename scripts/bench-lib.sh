# Sourced by scripts/bench.d/*.sh: side-by-side measurements.
#
# compare N NAME_A NAME_B CMD_A... -- CMD_B...
#   runs A and B alternately N times (after one warm-up run each) and
#   prints, for each, the medians of wall time, CPU time (user + system,
#   children included: perf script under profgen counts) and peak RSS
#   (/usr/bin/time -v's maximum resident set size), then B/A ratios: how
#   many times faster A is, and A's RSS as a fraction of B's. Sets
#   CMP_WALL_A, CMP_WALL_B, CMP_RSS_A, CMP_RSS_B (KiB) for the caller.
# Wall time needs a quiet machine; CPU time is steadier on a shared one.

_bench_tmp=$(mktemp -d)
trap 'rm -rf "$_bench_tmp"' EXIT

# _bench_run FILE CMD...: appends "wall cpu rssKiB" of one run to FILE.
_bench_run() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$_bench_tmp/t" "$@" >/dev/null 2>"$_bench_tmp/err" ||
		{ echo "bench: failed: $*" >&2; tail -3 "$_bench_tmp/err" >&2; return 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$_bench_tmp/t" >>"$out"
}

# _bench_median FILE COLUMN
_bench_median() {
	awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# With BENCH_BASELINE (a profgen built from an earlier revision: make
# bench BASE=REV), every comparison whose A command runs profgen
# ($BENCH_PROFGEN) is followed by one of the same command run by profgen
# and by the baseline, side by side: the regression check.
compare() {
	_compare "$@" || return 1
	local n=$1 a=()
	shift 3
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	[ -n "${BENCH_BASELINE:-}" ] && [ "${a[0]}" = "${BENCH_PROFGEN:-}" ] || return 0
	local saved=("$CMP_WALL_A" "$CMP_WALL_B" "$CMP_RSS_A" "$CMP_RSS_B")
	_compare "$n" profgen "profgen@${BENCH_BASE:-baseline}" "${a[@]}" -- "$BENCH_BASELINE" "${a[@]:1}" || return 1
	CMP_WALL_A=${saved[0]} CMP_WALL_B=${saved[1]} CMP_RSS_A=${saved[2]} CMP_RSS_B=${saved[3]}
}

_compare() {
	local n=$1 name_a=$2 name_b=$3
	shift 3
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	: >"$_bench_tmp/a"
	: >"$_bench_tmp/b"
	_bench_run /dev/null "${a[@]}" && _bench_run /dev/null "${b[@]}" || return 1
	for _ in $(seq "$n"); do
		_bench_run "$_bench_tmp/a" "${a[@]}" || return 1
		_bench_run "$_bench_tmp/b" "${b[@]}" || return 1
	done
	CMP_WALL_A=$(_bench_median "$_bench_tmp/a" 1) CMP_WALL_B=$(_bench_median "$_bench_tmp/b" 1)
	local ca cb
	ca=$(_bench_median "$_bench_tmp/a" 2) cb=$(_bench_median "$_bench_tmp/b" 2)
	CMP_RSS_A=$(_bench_median "$_bench_tmp/a" 3) CMP_RSS_B=$(_bench_median "$_bench_tmp/b" 3)
	printf '  %-34s %9s %9s %13s   (medians of %d alternating runs)\n' "" "wall s" "cpu s" "peak RSS MiB" "$n"
	printf '  %-34s %9s %9s %13d\n' "$name_a" "$CMP_WALL_A" "$ca" $((CMP_RSS_A / 1024))
	printf '  %-34s %9s %9s %13d\n' "$name_b" "$CMP_WALL_B" "$cb" $((CMP_RSS_B / 1024))
	awk -v wa="$CMP_WALL_A" -v wb="$CMP_WALL_B" -v ca="$ca" -v cb="$cb" -v ra="$CMP_RSS_A" -v rb="$CMP_RSS_B" \
		-v a="$name_a" -v b="$name_b" 'function r(x, y) { return y > 0 ? x / y : 0 }
		BEGIN { printf "  ratio: %s is %.2fx faster (wall), %.2fx (cpu); peak RSS %.2fx of %s\n", a, r(wb, wa), r(cb, ca), r(ra, rb), b }'
}

# peak_rss CMD...: peak RSS (KiB) of one run.
peak_rss() {
	/usr/bin/time -f '%M' -o "$_bench_tmp/r" "$@" >/dev/null 2>&1 || return 1
	cat "$_bench_tmp/r"
}
