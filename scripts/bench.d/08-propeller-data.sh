#!/usr/bin/env bash
# Builds the Propeller benchmark data in $TESTDATA/lbr/sqlite-propeller/:
# sqlbench on the SQLite amalgamation (as 20-lbr.sh's sqlite, same
# defines) built by clang-22 -O2 -gmlt -ffunction-sections
# -fbasic-block-address-map and lld-22, and bench.perf.data, an LBR trace
# of it made as $TESTDATA/lbr/sqlite/bench.perf.data is (tools/lbrgen:
# depth 32, period 800, 1000 orders; ~80 MB). Several minutes of CPU once;
# cached.
set -euo pipefail
data=${2:?usage: 08-propeller-data.sh PROFGEN TESTDATA}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/versions.sh"
dir=$data/lbr/sqlite-propeller
src=$data/lbr/.cache/sqlite3
for tool in clang-22 ld.lld-22 valgrind go; do
	command -v "$tool" >/dev/null || { echo "08-propeller-data: $tool not found; skipped"; exit 0; }
done
[ -s "$dir/bench.perf.data" ] && exit 0
fetch_sqlite "$src" || { echo "08-propeller-data: no SQLite amalgamation; skipped"; exit 0; }
mkdir -p "$dir"
start=$SECONDS
clang-22 -O2 -gmlt -ffunction-sections -fbasic-block-address-map --ld-path="$(command -v ld.lld-22)" \
	-DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 \
	-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 \
	-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB \
	-DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK \
	-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_STAT4 \
	-I"$src" "$src/sqlite3.c" "$root/testdata/programs/sqlbench.c" -lm -o "$dir/binary"
lbrgen=$dir/lbrgen
(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
traced_env "$lbrgen" -binary "$dir/binary" -seed 7 -flags plain -depth 32 -period 800 \
	-perfdata -single "$dir/bench.script" -- 1000
rm -f "$dir/bench.script" "$lbrgen"
echo "08-propeller-data: $((SECONDS - start))s, $(du -m "$dir/bench.perf.data" | cut -f1) MB perf.data"
