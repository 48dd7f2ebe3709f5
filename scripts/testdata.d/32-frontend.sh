#!/usr/bin/env bash
# Builds front-end instrumentation test data into DIR/instr/ (never committed):
#   fe22/   the SQLite amalgamation built with clang-22 -fprofile-instr-generate
#           -fcoverage-mapping (front-end PGO and coverage; version-4 function
#           hashes), run as 20 processes -> fe22/raw/*.profraw, fe22/binary
#   fe19/   the same with clang-19 (version-3 hashes)
# Both use 30-instr.sh's workload (instr/.cache/sqlmain.c) and sources.
# Cached by a .done stamp newer than this script. Skips a part whose clang
# is missing.
set -euo pipefail
out=${1:?usage: 32-frontend.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../versions.sh"
top=$out/instr
main=$top/.cache/sqlmain.c
if [ ! -s "$main" ] || ! fetch_sqlite "$top/.cache/sqlite3"; then
	echo "32-frontend: no sqlite sources (30-instr.sh makes them); skipping"
	exit 0
fi
fresh() { [ -e "$1/.done" ] && [ "$1/.done" -nt "$0" ]; }
for v in 22 19; do
	d=$top/fe$v
	command -v clang-$v >/dev/null || { echo "32-frontend: clang-$v not found; skipping fe$v"; continue; }
	fresh "$d" && continue
	echo "32-frontend: compiling sqlite with clang-$v -fprofile-instr-generate -fcoverage-mapping, a few minutes"
	rm -rf "$d" && mkdir -p "$d/raw"
	clang-$v -O1 -g0 -Wl,--build-id -fprofile-instr-generate -fcoverage-mapping \
		-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 -I"$top/.cache/sqlite3" \
		-o "$d/binary" "$main" "$top/.cache/sqlite3/sqlite3.c"
	for i in $(seq -f %02g 1 20); do
		LLVM_PROFILE_FILE="$d/raw/$i.profraw" "$d/binary" "$i" >/dev/null
	done
	touch "$d/.done"
done
