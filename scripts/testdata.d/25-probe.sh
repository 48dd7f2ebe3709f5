#!/usr/bin/env bash
# Builds the pseudo-probe test traces into DIR/probe/<prog>/ (issue 12):
# the programs of the LBR traces (testdata/programs wordfreq.c and
# recurse.c, and sqlbench on the SQLite amalgamation of the npm package
# better-sqlite3 pinned in scripts/versions.sh) and tailcall.c of the CS
# traces (tail calls, for the missing-frame inference of CS probe
# profiles), compiled here with
# clang-19 -O2 -g -fpseudo-probe-for-profiling, and traced with
# tools/lbrgen under valgrind lackey as scripts/testdata.d/20-lbr.sh does:
#
#   binary          the ELF (the MMAP2 path of the traces)
#   params          workload arguments, seed, flag layout, period
#   single.script   LBR samples of one process, llvm-profgen-19's layout
#   single.perf.data
#   hybrid.script   the same run's samples with call chains (perf -b -g),
#                   for context-sensitive probe profiles
#   hybrid.perf.data
#   hybrid-multi.script, hybrid-multi.<pid>.script
#                   tailcall only: the hybrid samples of 4 processes, and
#                   of each alone
#
# clang-19 orders the records of .pseudo_probe by heap address, so the
# compilers run without address space randomization (setarch -R): the same
# bytes on every run. Sources are compiled from their directory by their
# base name (wordfreq.c; sqlite3.c and sqlbench.c in the cache): the
# .__uniq. suffixes of static functions hash that name, and a test compiles
# them again the same way with the profile. Skips itself when clang-19, valgrind, objcopy, go or
# setarch is missing; skips sqlite alone when npm cannot fetch the
# package. Cached: a program is redone only when its source, lbrgen's
# sources or this script are newer than its .done stamp. About 2 minutes
# of CPU (1 of them compiling SQLite), 30 MB.
set -euo pipefail
out=${1:?usage: 25-probe.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/scripts/testdata.d/$(basename "$0")
. "$root/scripts/versions.sh"
for tool in clang-19 valgrind objcopy go setarch; do
	if ! command -v "$tool" >/dev/null; then
		echo "25-probe: $tool not found; skipping the pseudo-probe traces"
		exit 0
	fi
done
probe=$out/probe
mkdir -p "$probe/.cache"
lbrgen=$probe/.cache/lbrgen
if newer_than "$lbrgen" "$root"/tools/lbrgen/*.go; then
	(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
fi

# cc DIR OUT ARGS...: clang-19 with pseudo probes, in DIR, reproducibly.
# Sources are named relative to DIR: the .__uniq. suffix of static
# functions is a hash of the source file name as given, and clang must
# see the same names when it reads the profile back.
cc() {
	local dir=$1 bin=$2
	shift 2
	(cd "$dir" && traced_env setarch "$(uname -m)" -R clang-19 -O2 -g -fpseudo-probe-for-profiling \
		-fdebug-prefix-map="$probe/.cache"=. -fdebug-prefix-map="$root"=. "$@" -o "$bin.tmp")
	mv "$bin.tmp" "$bin"
}

# trace PROG SEED LAYOUT PERIOD ARGS...: DIR/probe/PROG/binary must exist.
# With hybrid_multi=yes, the hybrid samples of 4 processes too.
trace() {
	local prog=$1 seed=$2 layout=$3 period=$4
	shift 4
	local dir=$probe/$prog start=$SECONDS outs=()
	[ "${hybrid_multi:-}" = yes ] && outs=(-hybrid-multi "$dir/hybrid-multi" -procs 4)
	rm -f "$dir"/*.script "$dir"/*.perf.data "$dir/.done"
	traced_env "$lbrgen" -binary "$dir/binary" -seed "$seed" -flags "$layout" -period "$period" -perfdata \
		-single "$dir/single.script" -hybrid-single "$dir/hybrid.script" "${outs[@]}" -- "$@"
	printf 'args=%s\nseed=%s\nlayout=%s\nperiod=%s\ndepth=16\n' "$*" "$seed" "$layout" "$period" >"$dir/params"
	touch "$dir/.done"
	echo "25-probe: $prog: $((SECONDS - start))s, $(du -sh "$dir" | cut -f1)"
}

# small PROG SEED LAYOUT ARGS...: a program of testdata/programs.
small() {
	local prog=$1 seed=$2 layout=$3 src=$root/testdata/programs/$1.c
	shift 3
	mkdir -p "$probe/$prog"
	if ! newer_than "$probe/$prog/.done" "$src" "$lbrgen" "$self"; then
		echo "25-probe: $prog: up to date"
		return
	fi
	cc "$root/testdata/programs" "$probe/$prog/binary" "$prog.c"
	trace "$prog" "$seed" "$layout" 2000 "$@"
}

sqlite() {
	local src=$root/testdata/programs/sqlbench.c amalg=$probe/.cache/sqlite3
	if ! fetch_sqlite "$amalg"; then
		echo "25-probe: could not fetch better-sqlite3 with npm; skipping sqlite"
		return
	fi
	mkdir -p "$probe/sqlite"
	if ! newer_than "$probe/sqlite/.done" "$src" "$amalg/sqlite3.c" "$lbrgen" "$self"; then
		echo "25-probe: sqlite: up to date"
		return
	fi
	cp "$src" "$amalg/sqlbench.c"
	cc "$amalg" "$probe/sqlite/binary" -DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 \
		-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 \
		-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB \
		-DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK \
		-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_STAT4 \
		-I. sqlite3.c sqlbench.c -lm
	trace sqlite 16 typed 5000 600
}

small wordfreq 11 plain 20000
small recurse 15 typed 8
hybrid_multi=yes small tailcall 9 typed 2500
sqlite
