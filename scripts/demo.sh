#!/usr/bin/env bash
# Runs profgen on the embedded example: a small C++ program and an LBR trace
# of it (internal/generate/testdata, made by build.sh and lbr/gen.sh there),
# into an LLVM sample profile, then shows the hottest functions (demangled)
# and the start of the profile. Everything is written to a temporary
# directory; only Go is needed.
set -euo pipefail
bin=${1:?usage: demo.sh PROFGEN}
root=$(cd "$(dirname "$0")/.." && pwd)
example=$root/internal/generate/testdata
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== profgen --perfscript cxx-pie.script --binary cxx-pie.bin --format=text"
"$bin" --binary="$example/cxx-pie.bin" --perfscript="$example/lbr/cxx-pie.script" \
	--format=text --output="$out/cxx.prof" 2>&1
echo
echo "== profgen show (hottest functions)"
"$bin" show "$out/cxx.prof"
echo
echo "== the LLVM sample profile (first 12 of $(wc -l <"$out/cxx.prof") lines)"
head -12 "$out/cxx.prof"
