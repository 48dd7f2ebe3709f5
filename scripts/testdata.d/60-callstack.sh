#!/usr/bin/env bash
# A larger call-stack recording for benchmarks: forky (clang-19 -O2 -g, PIE,
# frame pointers) under perf record -e cpu-clock -g at 4999 Hz, and its
# perf script text. Output: DIR/callstack/. Skips without clang-19 or perf.
set -euo pipefail
out=${1:?usage: 60-callstack.sh DIR}/callstack
for tool in clang-19 perf; do
	command -v "$tool" >/dev/null || { echo "60-callstack: no $tool, skipped"; exit 0; }
done
src=$(cd "$(dirname "$0")/../../testdata/programs" && pwd)
mkdir -p "$out"
cd "$out"
[ -s big.script ] && exit 0
clang-19 -O2 -g -fPIE -pie -fno-omit-frame-pointer -o forky "$src/forky.c"
perf record -q -e cpu-clock -F 4999 -g -o big.perf.data -- \
	sh -c './forky 400000000 2 >/dev/null & ./forky 400000000 2 >/dev/null; wait' ||
	{ echo "60-callstack: perf record failed, skipped"; exit 0; }
perf script -i big.perf.data -F pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events \
	>big.script 2>/dev/null
