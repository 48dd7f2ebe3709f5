#!/usr/bin/env bash
# AArch64 test data (issue 14) into DIR/arm64/<prog>/: programs cross-built
# for arm64 and traced instruction by instruction under qemu-aarch64
# (tools/lbrgen: -singlestep -d exec,nochain logs every executed PC), as
# BRBE branch stacks and exact call stacks at simulated ASLR bases:
#
#   wordfreq   testdata/programs/wordfreq.c, clang-19 --target=aarch64-linux-gnu
#              -O2 -g -fdebug-info-for-profiling, PIE
#   wordfreq-nopie  the same, -no-pie (ET_EXEC at 0x400000)
#   sqlite     the pinned SQLite amalgamation (scripts/versions.sh) +
#              testdata/programs/sqlbench.c, the same flags, PIE
#   goarm64    testdata/goexample, GOARCH=arm64 go build -tags qemu (its
#              small workload; static, non-PIE at 0x10000): call stacks only. Not the same bytes from run to
#              run: Go's sysmon thread asks the running goroutine to yield
#              after 10 ms of wall time, and its extra runtime instructions
#              fall elsewhere each time (the C traces are reproducible).
#
# Files per C program (layout: tools/lbrgen/README.md): binary, params,
# single.script (one process, llvm-profgen-19's layout), multi.script (4
# processes, PID column) with multi.<pid>.script per process, fork.script
# (a process and two forked children), stack.script (call stacks of 4
# processes, perf script -F pid,time,period,event,ip,sym,dso), each also
# as .perf.data. goarm64 has binary, params and stack.*.
#
# clang-19 links through gcc-aarch64-linux-gnu's linker, with the sysroot
# of libc6-dev-arm64-cross (/usr/aarch64-linux-gnu), which qemu-aarch64 -L
# also runs the programs with. Skips itself when a tool is missing; skips
# sqlite alone when the amalgamation cannot be fetched. Cached: a program
# is redone only when its binary, lbrgen's sources or this script are
# newer than its .done stamp. Each trace takes 10-30 s (qemu logs one line
# per instruction through a pipe: about 3 µs per instruction).
set -euo pipefail
out=${1:?usage: 80-arm64.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/scripts/testdata.d/$(basename "$0")
. "$root/scripts/versions.sh"
sysroot=/usr/aarch64-linux-gnu
for tool in clang-19 aarch64-linux-gnu-ld qemu-aarch64 go; do
	if ! command -v "$tool" >/dev/null; then
		echo "80-arm64: $tool not found; skipping the AArch64 traces"
		exit 0
	fi
done
if [ ! -e "$sysroot/lib/libc.so.6" ]; then
	echo "80-arm64: no $sysroot (libc6-dev-arm64-cross); skipping the AArch64 traces"
	exit 0
fi
arm=$out/arm64
mkdir -p "$arm/.cache"
lbrgen=$arm/.cache/lbrgen
if newer_than "$lbrgen" "$root"/tools/lbrgen/*.go; then
	(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
fi
cflags=(--target=aarch64-linux-gnu -O2 -g -fdebug-info-for-profiling
	-fdebug-prefix-map="$arm/.cache"=. -fdebug-prefix-map="$root"=.)

# trace PROG BINARY SEED LAYOUT PERIOD OUTPUTS MAXINSNS ARGS...: OUTPUTS is
# lbr (the branch-stack layouts and call stacks) or stack (call stacks
# only); MAXINSNS ends the trace after that many instructions (0: at the
# program's end).
trace() {
	local prog=$1 bin=$2 seed=$3 layout=$4 period=$5 outputs=$6 maxinsns=$7
	shift 7
	local dir=$arm/$prog
	mkdir -p "$dir"
	if ! newer_than "$dir/.done" "$bin" "$lbrgen" "$self"; then
		echo "80-arm64: $prog: up to date"
		return
	fi
	rm -f "$dir"/*.script "$dir"/*.procs "$dir"/*.perf.data "$dir/.done"
	[ "$bin" -ef "$dir/binary" ] || cp "$bin" "$dir/binary"
	local start=$SECONDS lbr=()
	[ "$outputs" = lbr ] && lbr=(-single "$dir/single.script" -multi "$dir/multi" -fork "$dir/fork" -fork-after 300)
	traced_env "$lbrgen" -binary "$dir/binary" -sysroot "$sysroot" -seed "$seed" -flags "$layout" \
		-period "$period" -max-insns "$maxinsns" -perfdata -procs 4 "${lbr[@]}" -stack "$dir/stack" -- "$@" >/dev/null
	printf 'args=%s\nseed=%s\nlayout=%s\nperiod=%s\ndepth=16\noutputs=%s\nmax-insns=%s\n' \
		"$*" "$seed" "$layout" "$period" "$outputs" "$maxinsns" >"$dir/params"
	touch "$dir/.done"
	echo "80-arm64: $prog: $((SECONDS - start))s, $(du -sh "$dir" | cut -f1)"
}

# The SQLite amalgamation, pinned in scripts/versions.sh: the package
# 20-lbr.sh fetched is reused when present (fetch_sqlite checks its
# checksum), else fetched with npm.
fetch_sqlite_arm64() {
	local dir=$arm/.cache/sqlite3 tgz
	mkdir -p "$dir"
	for tgz in "$out"/lbr/.cache/better-sqlite3-"$BETTER_SQLITE3_VERSION".tgz \
		"$out"/lbr/.cache/sqlite3/better-sqlite3-"$BETTER_SQLITE3_VERSION".tgz; do
		[ -s "$tgz" ] && [ ! -s "$dir/${tgz##*/}" ] && cp "$tgz" "$dir/"
	done
	fetch_sqlite "$dir"
}

build_sqlite() {
	local bin=$arm/.cache/sqlbench src=$root/testdata/programs/sqlbench.c
	newer_than "$bin" "$src" "$arm/.cache/sqlite3/sqlite3.c" "$self" || return 0
	# The options of 20-lbr.sh's x86-64 build.
	clang-19 "${cflags[@]}" -DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 \
		-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 \
		-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB \
		-DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK \
		-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_STAT4 \
		-I"$arm/.cache/sqlite3" "$arm/.cache/sqlite3/sqlite3.c" "$src" -lm -o "$bin.tmp"
	mv "$bin.tmp" "$bin"
}

sqlite_ok=0
if fetch_sqlite_arm64; then
	build_sqlite & # a minute of CPU, beside the small traces
	sqlite_pid=$!
	sqlite_ok=1
else
	echo "80-arm64: could not fetch better-sqlite3 with npm; skipping the sqlite traces"
fi

progs=$root/testdata/programs
wordfreq=$arm/.cache/wordfreq
if newer_than "$wordfreq" "$progs/wordfreq.c" "$self"; then
	clang-19 "${cflags[@]}" "$progs/wordfreq.c" -o "$wordfreq"
fi
trace wordfreq "$wordfreq" 11 typed 1000 lbr 0 6000
wordfreq_nopie=$arm/.cache/wordfreq-nopie
if newer_than "$wordfreq_nopie" "$progs/wordfreq.c" "$self"; then
	clang-19 "${cflags[@]}" -fno-pie -no-pie "$progs/wordfreq.c" -o "$wordfreq_nopie"
fi
trace wordfreq-nopie "$wordfreq_nopie" 14 plain 1000 lbr 0 4000

goarm64=$arm/.cache/goarm64
if newer_than "$goarm64" "$root"/testdata/goexample/*.go "$self"; then
	(cd "$root/testdata/goexample" && GOARCH=arm64 GOOS=linux CGO_ENABLED=0 go build -tags qemu -trimpath -o "$goarm64" .)
fi
trace goarm64 "$goarm64" 12 plain 1000 stack 0

if [ "$sqlite_ok" = 1 ]; then
	wait "$sqlite_pid"
	# sqlbench's setup alone runs 20 M instructions: the trace stops at 8 M.
	trace sqlite "$arm/.cache/sqlbench" 13 typed 1000 lbr 8000000 40
fi
