#!/usr/bin/env bash
# Builds forky and records it with perf (cpu-clock, frame-pointer call
# chains), two concurrent runs so that the parents get different PIE bases,
# then writes the perf script layouts users type. Output: DIR (default
# testdata/callstack). Reproducible in structure, not byte for byte.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../callstack}
mkdir -p "$out"
cd "$out"
clang-19 -O2 -g -fPIE -pie -fno-omit-frame-pointer -fdebug-info-for-profiling \
	-o forky "$here/forky.c"
n=${FORKY_N:-40000000}
perf record -q -e cpu-clock -F 499 -g -o forky.perf.data -- \
	sh -c "./forky $n 2 >/dev/null & ./forky $n 2 >/dev/null; wait"
chmod 644 forky.perf.data; rm -f forky.perf.data.old
s() { perf script -i forky.perf.data "$@" 2>/dev/null; }
s >forky.default.script
s -F ip >forky.ip.script
s -F ip -G >forky.ip-noG.script
s -F pid,ip,sym,dso >forky.pid-ip-sym-dso.script
s --show-mmap-events --show-task-events >forky.default-tasks.script
s -F pid,ip,sym,dso --show-mmap-events --show-task-events >forky.pid-ip-sym-dso-tasks.script
s -F pid,ip,sym,dso,srcline >forky.pid-ip-sym-dso-srcline.script
s -F pid,ip,sym,dso -G --show-mmap-events --show-task-events >forky.pid-ip-sym-dso-noG-tasks.script
perf report -i forky.perf.data --no-children --sort sym --stdio -g none -F overhead,sample,sym \
	--dsos forky 2>/dev/null >forky.report.txt || true
