#!/usr/bin/env bash
# Builds the GCC LBR test traces into DIR/lbr/<prog>/ (layout:
# tools/lbrgen/README.md), after 20-lbr.sh (its lbrgen and the pinned
# SQLite amalgamation in DIR/lbr/.cache): sqlbench on SQLite compiled with
# gcc-12 -O2 -g (DWARF 5, GCC's .text.hot/.text.unlikely and foo.cold
# parts), traced as one process, four processes at different bases and a
# process with two forked children (sqlite-gcc); and the same with
# -fcf-protection (endbr64 at function entries; sqlite-gcc-cet, one
# process); and testdata/programs/bin/coldsplit-gcc (committed, a cold
# part far from its function; one process). The SQLite flags are
# 20-lbr.sh's; each SQLite trace directory has them in cflags (the
# acceptance tests compile sqlite3.c with them and the profile). Skips itself when gcc-12,
# valgrind, objcopy or 20-lbr.sh's outputs are missing. Cached: a program
# is redone only when its binary, lbrgen or this script are newer than its
# .done stamp.
set -euo pipefail
out=${1:?usage: 22-lbr-gcc.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/versions.sh"
lbr=$out/lbr
lbrgen=$lbr/.cache/lbrgen
sqlite=$lbr/.cache/sqlite3
for tool in gcc-12 valgrind objcopy; do
	if ! command -v "$tool" >/dev/null; then
		echo "22-lbr-gcc: $tool not found; skipping the GCC traces"
		exit 0
	fi
done
if [ ! -x "$lbrgen" ] || [ ! -s "$sqlite/sqlite3.c" ]; then
	echo "22-lbr-gcc: no lbrgen or SQLite from 20-lbr.sh; skipping the GCC traces"
	exit 0
fi

# The flags of sqlite3.c (20-lbr.sh's defines), beside -O2 -g.
sqlite_flags=(-DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0
	-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5
	-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB
	-DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK
	-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_STAT4)

# build_gcc BIN FLAGS...: sqlbench with gcc-12 -O2 -g and FLAGS.
build_gcc() {
	local bin=$1 src=$root/testdata/programs/sqlbench.c
	shift
	newer_than "$bin" "$src" "$sqlite/sqlite3.c" "$0" || return 0
	gcc-12 -O2 -g "$@" -fdebug-prefix-map="$lbr/.cache"=. -fdebug-prefix-map="$root"=. "${sqlite_flags[@]}" \
		-I"$sqlite" "$sqlite/sqlite3.c" "$src" -lm -o "$bin.tmp"
	mv "$bin.tmp" "$bin"
}

# trace PROG BINARY SEED LAYOUT ARGS -- LBRGEN_OUTPUTS...: lbrgen's
# outputs (paths relative to DIR/lbr/PROG) of one run of BINARY ARGS.
trace() {
	local prog=$1 bin=$2 seed=$3 layout=$4 args=$5 dir=$lbr/$1
	shift 6
	if ! newer_than "$dir/.done" "$bin" "$lbrgen" "$0"; then
		echo "22-lbr-gcc: $prog: up to date"
		return
	fi
	mkdir -p "$dir"
	rm -f "$dir"/*.script "$dir"/*.procs "$dir"/*.perf.data "$dir/.done"
	cp "$bin" "$dir/binary"
	local start=$SECONDS
	(cd "$dir" && traced_env "$lbrgen" -binary "$dir/binary" -seed "$seed" -flags "$layout" -period 5000 -perfdata "$@" -- $args)
	printf 'args=%s\nseed=%s\nlayout=%s\nperiod=5000\ndepth=16\n' "$args" "$seed" "$layout" >"$dir/params"
	touch "$dir/.done"
	echo "22-lbr-gcc: $prog: $((SECONDS - start))s, $(du -sh "$dir" | cut -f1)"
}

cache=$lbr/.cache
build_gcc "$cache/sqlbench-gcc"
build_gcc "$cache/sqlbench-gcc-cet" -fcf-protection
trace sqlite-gcc "$cache/sqlbench-gcc" 8 typed 600 -- \
	-single single.script -multi multi -procs 4 -full -fork fork -fork-after 1000
trace sqlite-gcc-cet "$cache/sqlbench-gcc-cet" 9 plain 600 -- -single single.script
printf '%s\n' -O2 -g "${sqlite_flags[@]}" >"$lbr/sqlite-gcc/cflags"
printf '%s\n' -O2 -g -fcf-protection "${sqlite_flags[@]}" >"$lbr/sqlite-gcc-cet/cflags"
trace coldsplit-gcc "$root/testdata/programs/bin/coldsplit-gcc" 10 typed 200000 -- -single single.script
