#!/usr/bin/env bash
# Call-stack conversion against perf itself, medians of alternating runs:
# profgen --perfdata (native) -> pprof next to perf report --no-children
# --sort sym on the same perf.data (acceptance, issue 15: no slower, on a
# real recording of >= 20k samples and a binary of >= 30 MB: the Go
# compiler of 05-gocompile-data.sh), and profgen --perfscript next to perf
# script alone. On the Go compiler, perf report runs twice: as the
# acceptance spells it (it then builds the call graphs of the recorded
# chains, its default for a -g recording) and with -g none (leaf symbols
# only, its fastest); profgen without its frame-pointer repair
# (--no-repair-skid) is the like-for-like of the second. BENCH_RUNS:
# number of runs (5).
set -euo pipefail
bin=$(realpath "${1:?usage: 60-callstack.sh PROFGEN TESTDATA}")
data=${2:?usage: 60-callstack.sh PROFGEN TESTDATA}
. "$(dirname "$0")/../bench-lib.sh"
command -v perf >/dev/null || { echo "60-callstack: perf not installed; skipped"; exit 0; }
runs=${BENCH_RUNS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out" "$_bench_tmp"' EXIT
# perf report of a file, as perf's own summary of the same samples.
report=(perf report --no-children --sort sym --stdio -g none -i)
go=$data/gocompile
if [ -s "$go/perf.data" ]; then
	n=$(perf report -i "$go/perf.data" --stdio -g none --sort dso 2>/dev/null | awk '/^# Samples:/ { print $3; exit }')
	echo "== call stacks -> pprof: the Go compiler ($(du -m "$go/compile" | cut -f1) MB) compiling net/http, ${n:-?} samples"
	compare "$runs" "profgen --perfdata" "perf report (call graphs)" \
		"$bin" --binary "$go/compile" --perfdata "$go/perf.data" --format=pprof -o "$out/go.pprof" -- \
		perf report --no-children --sort sym --stdio -i "$go/perf.data"
	echo "== the same, perf report -g none (leaf symbols only)"
	compare "$runs" "profgen --perfdata" "perf report -g none" \
		"$bin" --binary "$go/compile" --perfdata "$go/perf.data" --format=pprof -o "$out/go.pprof" -- \
		"${report[@]}" "$go/perf.data"
	echo "== the same, profgen --no-repair-skid (the chains as recorded, as perf reads them)"
	compare "$runs" "profgen --no-repair-skid" "perf report -g none" \
		"$bin" --binary "$go/compile" --perfdata "$go/perf.data" --format=pprof --no-repair-skid -o "$out/go.pprof" -- \
		"${report[@]}" "$go/perf.data"
fi
dir=$data/callstack
if [ -s "$dir/big.script" ]; then
	echo "== call stacks -> pprof: forky, callstack/big.perf.data"
	compare "$runs" "profgen --perfdata" "perf report" \
		"$bin" --binary "$dir/forky" --perfdata "$dir/big.perf.data" --format=pprof -o "$out/a.pprof" -- \
		"${report[@]}" "$dir/big.perf.data"
	echo "== call stacks -> text: forky, callstack/big.script against perf script alone"
	compare "$runs" "profgen --perfscript" "perf script" \
		"$bin" --binary "$dir/forky" --perfscript "$dir/big.script" -o "$out/a.prof" -- \
		perf script -i "$dir/big.perf.data" -F pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events
fi
nonpie=$data/nonpie
if [ -s "$nonpie/nonpiego.perf.data" ]; then
	echo "== call stacks -> pprof: nonpiego (Go, 11.5 MiB text)"
	compare "$runs" "profgen --perfdata" "perf report" \
		"$bin" --binary "$nonpie/nonpiego" --perfdata "$nonpie/nonpiego.perf.data" --format=pprof -o "$out/g.pprof" -- \
		"${report[@]}" "$nonpie/nonpiego.perf.data"
fi
