#!/usr/bin/env bash
# Builds the large-binary benchmark data in $TESTDATA/bigcpp/: a C++
# program of >= 50 MB of code with full -g (scripts/gen-bigcpp.sh, 34
# units), and an LBR trace of it running two of its units (tools/lbrgen).
# Takes several minutes of CPU once; cached.
set -euo pipefail
data=${2:?usage: 07-bigbinary-data.sh PROFGEN TESTDATA}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/versions.sh"
dir=$data/bigcpp
for tool in clang++-19 valgrind go; do
	command -v "$tool" >/dev/null || { echo "07-bigbinary-data: $tool not found; skipped"; exit 0; }
done
[ -s "$dir/trace.script" ] && exit 0
start=$SECONDS
"$root/scripts/gen-bigcpp.sh" "$dir"
lbrgen=$dir/lbrgen
(cd "$root" && go build -o "$lbrgen" ./tools/lbrgen)
traced_env "$lbrgen" -binary "$dir/bigcpp" -seed 3 -flags plain -depth 16 -period 2000 \
	-single "$dir/trace.script.tmp" -- 2000 2
mv "$dir/trace.script.tmp" "$dir/trace.script"
echo "07-bigbinary-data: $((SECONDS - start))s, $(size "$dir/bigcpp" | awk 'NR == 2 { printf "%d MB of code", $1 / 1e6 }'), $(du -m "$dir/bigcpp" | cut -f1) MB file"
