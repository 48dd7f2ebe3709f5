#!/usr/bin/env bash
# Builds the LBR test traces into DIR/lbr/<prog>/ (layout: tools/lbrgen/README.md):
# the small programs committed under testdata/programs/bin, and sqlbench, a
# SQL workload on the SQLite amalgamation (from the npm package
# better-sqlite3, compiled here with clang-19 -O2 -g; over 1 MB of code).
# Traces come from valgrind lackey through tools/lbrgen, each layout also as
# perf.data; wordfreq, recurse and sqlite also get hybrid samples (call
# chain + branch stack, as perf record -b -g), from the same run. Skips itself when
# clang-19, valgrind, objcopy or go is missing; skips sqlite alone when npm
# cannot fetch the package. Cached: a program is redone only when its binary,
# lbrgen's sources or this script are newer than its .done stamp.
#
# LBRGEN_BENCH=1 also makes DIR/lbr/sqlite/bench.script (~120 MB) and
# bench.perf.data (the same samples), which only
# `make bench` needs (scripts/bench.d/00-lbr-data.sh sets it).
set -euo pipefail
out=${1:?usage: 20-lbr.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/versions.sh"
for tool in clang-19 valgrind objcopy go; do
	if ! command -v "$tool" >/dev/null; then
		echo "20-lbr: $tool not found; skipping the LBR traces"
		exit 0
	fi
done
lbr=$out/lbr
mkdir -p "$lbr/.cache"
lbrgen=$lbr/.cache/lbrgen
if newer_than "$lbrgen" "$root"/tools/lbrgen/*.go; then
	(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
fi

# trace PROG BINARY SEED LAYOUT PERIOD FORK_AFTER REUSE_EVERY HYBRID ARGS...
# (HYBRID: yes to write hybrid.script and hybrid-multi.script too)
trace() {
	local prog=$1 bin=$2 seed=$3 layout=$4 period=$5 forkafter=$6 every=$7 hybrid=$8
	shift 8
	local dir=$lbr/$prog
	mkdir -p "$dir"
	if ! newer_than "$dir/.done" "$bin" "$lbrgen" "$0"; then
		echo "20-lbr: $prog: up to date"
		return
	fi
	rm -f "$dir"/*.script "$dir"/*.procs "$dir"/*.perf.data "$dir/.done"
	[ "$bin" -ef "$dir/binary" ] || cp "$bin" "$dir/binary"
	local start=$SECONDS hy=()
	[ "$hybrid" = yes ] && hy=(-hybrid-single "$dir/hybrid.script" -hybrid-multi "$dir/hybrid-multi")
	traced_env "$lbrgen" -binary "$dir/binary" -seed "$seed" -flags "$layout" -period "$period" -perfdata \
		-single "$dir/single.script" -multi "$dir/multi" -procs 4 -full \
		-fork "$dir/fork" -fork-after "$forkafter" \
		-reuse "$dir/reuse" -reuse-every "$every" "${hy[@]}" -- "$@"
	printf 'args=%s\nseed=%s\nlayout=%s\nperiod=%s\ndepth=16\nhybrid=%s\n' "$*" "$seed" "$layout" "$period" "$hybrid" >"$dir/params"
	touch "$dir/.done"
	echo "20-lbr: $prog: $((SECONDS - start))s, $(du -sh "$dir" | cut -f1)"
}

# The SQLite amalgamation, pinned in scripts/versions.sh; fetched once.
fetch_sqlite_lbr() { fetch_sqlite "$lbr/.cache/sqlite3"; }

build_sqlite() {
	local bin=$lbr/.cache/sqlbench src=$root/testdata/programs/sqlbench.c
	newer_than "$bin" "$src" "$lbr/.cache/sqlite3/sqlite3.c" "$0" || return 0
	clang-19 -O2 -g -fdebug-prefix-map="$lbr/.cache"=. -fdebug-prefix-map="$root"=. \
		-DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 \
		-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 \
		-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB \
		-DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK \
		-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_STAT4 \
		-I"$lbr/.cache/sqlite3" "$lbr/.cache/sqlite3/sqlite3.c" "$src" -lm -o "$bin.tmp"
	mv "$bin.tmp" "$bin"
}

sqlite_ok=0
if fetch_sqlite_lbr; then
	# Compile SQLite (a minute of CPU) while the small programs are traced.
	build_sqlite &
	sqlite_pid=$!
	sqlite_ok=1
else
	echo "20-lbr: could not fetch better-sqlite3 with npm; skipping the sqlite traces"
fi

bins=$root/testdata/programs/bin
trace wordfreq "$bins/wordfreq" 1 plain 2000 500 400 yes 20000
trace wordfreq-nopie "$bins/wordfreq-nopie" 2 spec 2000 500 400 no 20000
trace wordfreq-cet "$bins/wordfreq-cet" 3 typed 2000 500 400 no 20000
trace wordfreq-gcc "$bins/wordfreq-gcc" 4 plain 2000 500 400 no 20000
trace recurse "$bins/recurse" 5 typed 2000 500 400 yes 8

if [ "$sqlite_ok" = 1 ]; then
	wait "$sqlite_pid"
	trace sqlite "$lbr/.cache/sqlbench" 6 typed 5000 1000 1500 yes 600
	if [ "${LBRGEN_BENCH:-0}" = 1 ]; then
		bench=$lbr/sqlite/bench.script
		if newer_than "$bench" "$lbr/sqlite/.done" || [ ! -e "${bench%.script}.perf.data" ]; then
			start=$SECONDS
			traced_env "$lbrgen" -binary "$lbr/sqlite/binary" -seed 7 -flags plain -depth 32 -period 800 \
				-perfdata -single "$bench" -- 1000
			echo "20-lbr: sqlite bench.script: $((SECONDS - start))s, $(du -h "$bench" | cut -f1)"
		fi
	fi
fi
