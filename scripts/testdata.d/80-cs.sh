#!/usr/bin/env bash
# Builds the context-sensitive (CSSPGO) test traces into DIR/cs/:
#
#   DIR/cs/tailcall/        testdata/programs/tailcall.c (clang-19 -O2 -g, PIE):
#                           tail calls (direct, mutual, indirect) and a deep
#                           recursion; hybrid.script, hybrid.perf.data (one
#                           process), hybrid-multi.script, hybrid-multi.<pid>.script,
#                           hybrid-multi.perf.data (4 processes), binary, params
#   DIR/cs/sqlite-bench/    CS_BENCH=1 only (make bench): hybrid.script, ~115 MB,
#                           of the sqlite binary of DIR/lbr/sqlite (sqlbench 600,
#                           32-entry branch stacks, a sample every 800 instructions)
#
# Traces come from valgrind lackey through tools/lbrgen (see its README),
# with exact call stacks. Skips itself when clang-19, valgrind, objcopy or
# go is missing (the bench trace also when DIR/lbr/sqlite is absent).
# Cached: redone only when the binary, lbrgen's sources or this script are
# newer than the .done stamp.
set -euo pipefail
out=${1:?usage: 80-cs.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/versions.sh"
for tool in clang-19 valgrind objcopy go; do
	if ! command -v "$tool" >/dev/null; then
		echo "80-cs: $tool not found; skipping the CS traces"
		exit 0
	fi
done
cs=$out/cs
mkdir -p "$cs/.cache"
lbrgen=$cs/.cache/lbrgen
if newer_than "$lbrgen" "$root"/tools/lbrgen/*.go; then
	(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
fi

# trace NAME BINARY SEED PERIOD DEPTH OUTPUTS ARGS...
# (OUTPUTS: "all" for the single and multi-process hybrid traces with
# perf.data, "single" for hybrid.script alone)
trace() {
	local name=$1 bin=$2 seed=$3 period=$4 depth=$5 outputs=$6
	shift 6
	local dir=$cs/$name
	mkdir -p "$dir"
	if ! newer_than "$dir/.done" "$bin" "$lbrgen" "$0"; then
		echo "80-cs: $name: up to date"
		return
	fi
	rm -f "$dir"/*.script "$dir"/*.procs "$dir"/*.perf.data "$dir/.done"
	cp "$bin" "$dir/binary"
	local start=$SECONDS outs=(-hybrid-single "$dir/hybrid.script")
	[ "$outputs" = all ] && outs+=(-hybrid-multi "$dir/hybrid-multi" -procs 4 -perfdata)
	traced_env "$lbrgen" -binary "$dir/binary" -seed "$seed" -flags typed -period "$period" -depth "$depth" \
		"${outs[@]}" -- "$@"
	printf 'args=%s\nseed=%s\nlayout=typed\nperiod=%s\ndepth=%s\nhybrid=yes\n' "$*" "$seed" "$period" "$depth" >"$dir/params"
	touch "$dir/.done"
	echo "80-cs: $name: $((SECONDS - start))s, $(du -sh "$dir" | cut -f1)"
}

src=$root/testdata/programs/tailcall.c
tailcall=$cs/.cache/tailcall
if newer_than "$tailcall" "$src" "$0"; then
	clang-19 -O2 -g -fdebug-prefix-map="$root"=. "$src" -o "$tailcall.tmp"
	mv "$tailcall.tmp" "$tailcall"
fi
trace tailcall "$tailcall" 9 1500 16 all 2500

if [ "${CS_BENCH:-0}" = 1 ]; then
	if [ -e "$out/lbr/sqlite/binary" ]; then
		trace sqlite-bench "$out/lbr/sqlite/binary" 10 800 32 single 600
	else
		echo "80-cs: no $out/lbr/sqlite/binary; skipping the sqlite bench trace"
	fi
fi
