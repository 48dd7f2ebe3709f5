#!/usr/bin/env bash
# Go PGO from perf call-stack samples, end to end:
#   build testdata/goexample -> perf record -e cpu-clock -g -> profgen
#   --format=pprof -> go build -pgo, showing the hot call edges the compiler
#   found (-gcflags=-d=pgodebug=2 prints "hottest callee ...").
# Usage: pgo-example.sh PROFGEN OUTDIR
set -euo pipefail
profgen=$(realpath "${1:?usage: pgo-example.sh PROFGEN OUTDIR}")
out=${2:?usage: pgo-example.sh PROFGEN OUTDIR}
src=$(cd "$(dirname "$0")/../testdata/goexample" && pwd)
mkdir -p "$out"
out=$(realpath "$out")
go build -C "$src" -o "$out/goexample" .
perf record -q -e cpu-clock -F 999 -g -o "$out/perf.data" -- "$out/goexample" >/dev/null
"$profgen" --binary "$out/goexample" --perfdata "$out/perf.data" --format=pprof -o "$out/goexample.pprof"
go tool pprof -top -sample_index=samples "$out/goexample.pprof" 2>/dev/null | sed -n '1,12p'
go build -C "$src" -a -pgo="$out/goexample.pprof" -gcflags=-d=pgodebug=2 -o "$out/goexample.pgo" . \
	>"$out/pgodebug.log" 2>&1
grep 'hottest callee' "$out/pgodebug.log"
