#!/usr/bin/env bash
# Builds the instrumentation-profile test data into DIR/instr/ (never committed):
#   sqlite/      the SQLite amalgamation (npm package better-sqlite3) built with
#                clang-19 -O1 -fprofile-generate (>1 MB of code) and run as
#                $INSTR_RUNS (default 1000) tiny processes, one raw each, named by run
#                -> sqlite/raw/*.profraw
#   bench/       2,000 raws of the same binary for `make bench`
#                (only with INSTR_BENCH=1)
#   corr/        a -mllvm -profile-correlate=binary -mllvm -disable-vp=true build
#                (binary + 200 raws holding header and counters only)
#   clang14/     clang-14 raws (raw version 8) of a small program
#   cont/        continuous mode (%c, -mllvm -runtime-counter-relocation) raws
#   pool/        merge-pool (%4m) raws
#   mixed/       raws of two different binaries in one directory (+ bin-a, bin-b)
# Cached: each part is redone only when its .done stamp is missing or older
# than this script. Skips itself when clang-19 or llvm-profdata-19 is missing.
set -euo pipefail
out=${1:?usage: 30-instr.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../versions.sh"
for tool in clang-19 llvm-profdata-19; do
	if ! command -v "$tool" >/dev/null; then
		echo "30-instr: $tool not found; skipping"
		exit 0
	fi
done
top=$out/instr
mkdir -p "$top/.cache"
runs=${INSTR_RUNS:-1000}

fresh() { [ -e "$1/.done" ] && [ "$1/.done" -nt "$0" ]; }

# runmany DIR N PROG ARGS...: runs PROG ARGS... I for I = 0001..N, two at
# a time, each writing DIR/I.profraw. Named by run, not by process id (%p):
# the same N files every time, listed in run order, and none lost to a
# process id reused within the run (pid_max may be 32768).
runmany() {
	local dir=$1 n=$2
	shift 2
	mkdir -p "$dir"
	seq -f %04g 1 "$n" | traced_env xargs -P 2 -I{} env LLVM_PROFILE_FILE="$dir/{}.profraw" "$@" {} >/dev/null
}

# The SQLite amalgamation, pinned in scripts/versions.sh.
sqlite_src() { fetch_sqlite "$top/.cache/sqlite3"; }

# The per-run workload: a few statements on an in-memory database.
cat >"$top/.cache/sqlmain.c.new" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) % 7 + 1 : 3;
	sqlite3 *db;
	char sql[256];
	if (sqlite3_open(":memory:", &db)) return 1;
	sqlite3_exec(db, "create table t(a integer primary key, b text);", 0, 0, 0);
	for (int i = 0; i < n * 5; i++) {
		snprintf(sql, sizeof sql, "insert into t(b) values('v%d');", i * n);
		sqlite3_exec(db, sql, 0, 0, 0);
	}
	if (n % 2) sqlite3_exec(db, "create index tb on t(b);", 0, 0, 0);
	sqlite3_exec(db, "select count(*), max(b) from t where a > 2;", 0, 0, 0);
	sqlite3_close(db);
	return 0;
}
C
cmp -s "$top/.cache/sqlmain.c.new" "$top/.cache/sqlmain.c" || mv "$top/.cache/sqlmain.c.new" "$top/.cache/sqlmain.c"
rm -f "$top/.cache/sqlmain.c.new"

build_sqlite() { # NAME FLAGS...: cached while the flags and main program stay the same
	local name=$1
	shift
	local bin=$top/.cache/$name
	local flags="clang-19 -O1 $* $(cksum <"$top/.cache/sqlmain.c") better-sqlite3@$BETTER_SQLITE3_VERSION"
	if [ ! -x "$bin" ] || [ "$(cat "$bin.flags" 2>/dev/null)" != "$flags" ]; then
		echo "30-instr: compiling sqlite ($name), a few minutes"
		clang-19 -O1 -g0 -Wl,--build-id "$@" -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 \
			-I"$top/.cache/sqlite3" -o "$bin" "$top/.cache/sqlmain.c" "$top/.cache/sqlite3/sqlite3.c"
		printf '%s' "$flags" >"$bin.flags"
	fi
}

if sqlite_src; then
	d=$top/sqlite
	if ! fresh "$d"; then
		build_sqlite sqlite-gen -fprofile-generate
		rm -rf "$d" && mkdir -p "$d"
		cp "$top/.cache/sqlite-gen" "$d/binary"
		runmany "$d/raw" "$runs" "$d/binary"
		touch "$d/.done"
		echo "30-instr: sqlite: $(ls "$d/raw" | wc -l) raws"
	fi
	d=$top/corr
	if ! fresh "$d"; then
		build_sqlite sqlite-corr -fprofile-generate -mllvm -profile-correlate=binary -mllvm -disable-vp=true
		rm -rf "$d" && mkdir -p "$d"
		cp "$top/.cache/sqlite-corr" "$d/binary"
		runmany "$d/raw" 200 "$d/binary"
		touch "$d/.done"
	fi
	d=$top/bench
	if [ "${INSTR_BENCH:-0}" = 1 ] && ! fresh "$d"; then
		rm -rf "$d" && mkdir -p "$d"
		cp "$top/sqlite/binary" "$d/binary"
		runmany "$d/raw" 2000 "$d/binary"
		touch "$d/.done"
	fi
else
	echo "30-instr: cannot fetch better-sqlite3 with npm; skipping the sqlite parts"
fi

# A small program for the other modes.
small=$top/.cache/small.c
cat >"$small" <<'C'
#include <stdlib.h>
#include <string.h>
static int sq(int x) { return x * x; }
int (*pick(int n))(int) { return n & 1 ? sq : abs; }
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 1, s = 0;
	char buf[64];
	for (int i = 0; i < n % 50; i++) s += pick(i)(i - 3);
	memset(buf, s & 0xff, (size_t)(n % 60) + 1);
	volatile char sink = buf[0];
	(void)sink;
	return 0;
}
C
small_other=$top/.cache/small2.c
sed 's/x \* x/x * x + 1/' "$small" >"$small_other"

d=$top/clang14
if command -v clang-14 >/dev/null && ! fresh "$d"; then
	rm -rf "$d" && mkdir -p "$d"
	if clang-14 -O1 -fprofile-generate -Wl,--build-id -o "$d/binary" "$small" 2>/dev/null; then
		runmany "$d/raw" 100 "$d/binary"
		touch "$d/.done"
	else
		echo "30-instr: clang-14 cannot link -fprofile-generate (libclang-rt-14-dev missing?); skipping"
	fi
fi

d=$top/cont
if ! fresh "$d"; then
	rm -rf "$d" && mkdir -p "$d/raw"
	clang-19 -O1 -fprofile-generate -mllvm -runtime-counter-relocation -mllvm -disable-vp=true \
		-Wl,--build-id -o "$d/binary" "$small"
	for i in $(seq 1 20); do LLVM_PROFILE_FILE="$d/raw/%c%p.profraw" "$d/binary" "$i"; done
	touch "$d/.done"
fi

d=$top/pool
if ! fresh "$d"; then
	rm -rf "$d" && mkdir -p "$d/raw"
	clang-19 -O1 -fprofile-generate -Wl,--build-id -o "$d/binary" "$small"
	for i in $(seq 1 40); do LLVM_PROFILE_FILE="$d/raw/%4m.profraw" "$d/binary" "$i"; done
	touch "$d/.done"
fi

d=$top/mixed
if ! fresh "$d"; then
	rm -rf "$d" && mkdir -p "$d/raw"
	clang-19 -O1 -fprofile-generate -Wl,--build-id -o "$d/bin-a" "$small"
	clang-19 -O1 -fprofile-generate -Wl,--build-id -o "$d/bin-b" "$small_other"
	for i in $(seq 1 30); do
		LLVM_PROFILE_FILE="$d/raw/a-%p.profraw" "$d/bin-a" "$i"
		LLVM_PROFILE_FILE="$d/raw/b-%p.profraw" "$d/bin-b" "$i"
	done
	touch "$d/.done"
fi
echo "30-instr: done"
