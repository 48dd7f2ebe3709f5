#!/usr/bin/env bash
# Builds the real call-stack recording the benchmarks use, in
# $TESTDATA/gocompile/: the Go compiler built here with uncompressed DWARF
# (>= 30 MB), and perf.data of it compiling net/http and its dependencies
# (perf record -g -e cpu-clock -F 999, >= 20k samples), the go command
# running this compiler through -toolexec. Cached: redone when missing.
set -euo pipefail
data=${2:?usage: 05-gocompile-data.sh PROFGEN TESTDATA}
dir=$(realpath -m "$data/gocompile")
for tool in go perf; do
	command -v "$tool" >/dev/null || { echo "05-gocompile-data: $tool not found; skipped"; exit 0; }
done
[ -s "$dir/perf.data" ] && [ -s "$dir/compile" ] && exit 0
mkdir -p "$dir"
start=$SECONDS
go build -ldflags=-compressdwarf=false -o "$dir/compile" cmd/compile
cat >"$dir/toolexec.sh" <<EOT
#!/bin/sh
tool=\$1
shift
[ "\$(basename "\$tool")" = compile ] && exec "$dir/compile" "\$@"
exec "\$tool" "\$@"
EOT
chmod +x "$dir/toolexec.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && GOCACHE=$work/cache GOFLAGS= perf record -q -g -e cpu-clock -F 999 -o "$dir/perf.data.tmp" -- \
	go build -toolexec="$dir/toolexec.sh" -o /dev/null net/http) >/dev/null
mv "$dir/perf.data.tmp" "$dir/perf.data"
echo "05-gocompile-data: $((SECONDS - start))s, compiler $(du -m "$dir/compile" | cut -f1) MB, perf.data $(du -m "$dir/perf.data" | cut -f1) MB"
