#!/usr/bin/env bash
# samebytes.sh BEFORE AFTER [TESTDATA]: runs two profgen binaries on the
# same conversions and reports every output that differs (bytes, exit
# status, or stderr): the check that a refactor changed no output.
# The conversions cover every input kind and output format on the
# committed fixtures, and on the traces of make testdata when TESTDATA
# (default build/testdata) has them. Prints one line per difference and a
# count; exits 1 when any differs.
set -uo pipefail
before=${1:?usage: samebytes.sh BEFORE AFTER [TESTDATA]}
after=${2:?usage: samebytes.sh BEFORE AFTER [TESTDATA]}
data=${3:-build/testdata}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 diffs=0

# same NAME ARGS...: one conversion by both binaries; ARGS may hold OUT,
# which becomes each run's own output path.
same() {
	local name=$1
	shift
	runs=$((runs + 1))
	for side in before after; do
		local bin=$before
		[ "$side" = after ] && bin=$after
		mkdir -p "$tmp/$side"
		rm -rf "${tmp:?}/$side"/*
		local args=("${@//OUT/$tmp/$side/out}")
		(cd "$tmp/$side" && "$bin" "${args[@]}" >stdout 2>stderr; echo $? >status)
		sed -i "s|$tmp/$side|DIR|g" "$tmp/$side/stderr" "$tmp/$side/stdout"
	done
	if ! diff -r "$tmp/before" "$tmp/after" >"$tmp/diff"; then
		diffs=$((diffs + 1))
		echo "DIFFERS: $name: $(head -3 "$tmp/diff" | tr '\n' ' ')"
	fi
}

# lbr NAME BINARY SCRIPT: every output of an LBR trace.
lbr() {
	local n=$1 bin=$2 in=$3
	for f in text extbinary binary gcc bolt; do
		same "$n $f" --perfscript "$in" --binary "$bin" --format "$f" -o OUT
	done
	same "$n skip" --perfscript "$in" --binary "$bin" --skip-symbolization -o OUT
	same "$n also" --perfscript "$in" --binary "$bin" --format text -o OUT.txt --also gcc=OUT.afdo --also bolt=OUT.fdata
	same "$n gcc-v1" --perfscript "$in" --binary "$bin" --format gcc --gcov-version 1 -o OUT
	same "$n md5" --perfscript "$in" --binary "$bin" --format extbinary --use-md5 -o OUT
	same "$n density" --perfscript "$in" --binary "$bin" --format text --show-density --populate-profile-symbol-list -o OUT
	same "$n address-again" --perfscript "$in" --binary "$bin" --skip-symbolization -o OUT.raw
}

# stacks NAME BINARY INPUT-FLAG INPUT: every output of call stacks.
stacks() {
	local n=$1 bin=$2 flag=$3 in=$4
	for f in pprof text extbinary gcc bolt; do
		same "$n $f" "$flag" "$in" --binary "$bin" --format "$f" -o OUT
	done
	same "$n skip" "$flag" "$in" --binary "$bin" --skip-symbolization -o OUT
	same "$n also" "$flag" "$in" --binary "$bin" --format pprof -o OUT.pb --also text=OUT.txt --also gcc=OUT.afdo
	same "$n counts" "$flag" "$in" --binary "$bin" --format text --call-counts none --body-counts hits -o OUT
	same "$n pprof wrappers" "$flag" "$in" --binary "$bin" --format pprof --no-fold-wrappers --fold-kernel -o OUT
	same "$n found" "$flag" "$in" --format pprof -o OUT.%b.pb
}

# hybrid NAME BINARY SCRIPT: every output of hybrid (CS) samples.
hybrid() {
	local n=$1 bin=$2 in=$3
	for f in text extbinary gcc bolt; do
		same "$n $f" --perfscript "$in" --binary "$bin" --format "$f" -o OUT
	done
	same "$n skip" --perfscript "$in" --binary "$bin" --skip-symbolization -o OUT
	same "$n flat" --perfscript "$in" --binary "$bin" --format text --ignore-stack-samples -o OUT
	same "$n csspgo-preinliner" --perfscript "$in" --binary "$bin" --format text --csspgo-preinliner=false -o OUT
	same "$n also" --perfscript "$in" --binary "$bin" --format text -o OUT.txt --also extbinary=OUT.ext --also gcc=OUT.afdo
}

cs=$root/testdata/callstack
stacks "forky perf.data" "$cs/forky" --perfdata "$cs/forky.perf.data"
stacks "forky script" "$cs/forky" --perfscript "$cs/forky.default-tasks.script"
same "forky ip" --perfscript "$cs/forky.ip.script" --binary "$cs/forky" --format pprof -o OUT
same "forky errors" --perfscript "$cs/README.md" --binary "$cs/forky" -o OUT
t=$root/internal/driver/testdata
lbr "t" "$t/t.bin" "$t/t.script"
same "t llvm19 raw" --unsymbolized-profile "$t/t.llvm19.raw" --binary "$t/t.bin" --format text -o OUT
same "t disasm" --show-disassembly-only --binary "$t/t.bin" -o OUT
p=$root/testdata/programs
lbr "anonns" "$p/bin/anonns-gcc" "$p/anonns.lbr.script"
lbr "neverrun" "$p/bin/neverrun-gcc" "$p/neverrun.lbr.script"
for d in "$data"/lbr/*/; do
	[ -e "$d/single.script" ] && lbr "lbr $(basename "$d")" "$d/binary" "$d/single.script"
	[ -e "$d/multi.perf.data" ] && same "lbr $(basename "$d") perf.data" --perfdata "$d/multi.perf.data" --binary "$d/binary" --format text -o OUT
done
for d in "$data"/probe/*/; do
	[ -e "$d/single.script" ] && lbr "probe $(basename "$d")" "$d/binary" "$d/single.script"
	[ -e "$d/hybrid.script" ] && hybrid "probe hybrid $(basename "$d")" "$d/binary" "$d/hybrid.script"
done
for d in "$data"/cs/*/; do
	[ -e "$d/hybrid.script" ] && hybrid "cs $(basename "$d")" "$d/binary" "$d/hybrid.script"
	[ -e "$d/hybrid-multi.perf.data" ] && same "cs $(basename "$d") multi" --perfdata "$d/hybrid-multi.perf.data" --binary "$d/binary" --format text -o OUT
done
for d in "$data"/callstack/*/; do
	[ -e "$d/perf.data" ] && [ -e "$d/binary" ] && stacks "callstack $(basename "$d")" "$d/binary" --perfdata "$d/perf.data"
done
echo "samebytes: $diffs of $runs conversions differ"
[ "$diffs" = 0 ]
