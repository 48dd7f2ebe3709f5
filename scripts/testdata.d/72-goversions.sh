#!/usr/bin/env bash
# testdata/goversions built by each Go toolchain of GO_TOOLCHAINS
# (versions.sh), into DIR/goversions/prog-<version>: the tests read their
# pclntab against their DWARF. A toolchain that cannot be fetched is
# skipped (no network); everything without go. Cached: a binary is
# rebuilt only when its sources or this script are newer.
set -euo pipefail
out=$(realpath -m "${1:?usage: 72-goversions.sh DIR}/goversions")
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/scripts/testdata.d/$(basename "$0")
. "$root/scripts/versions.sh" # GO_TOOLCHAINS, newer_than
if ! command -v go >/dev/null; then
	echo "72-goversions: no go, skipped"
	exit 0
fi
mkdir -p "$out"
src=$root/testdata/goversions
for v in $GO_TOOLCHAINS; do
	bin=$out/prog-$v
	if ! newer_than "$bin" "$src"/main.go "$src"/go.mod "$self"; then
		continue
	fi
	if (cd "$src" && GOTOOLCHAIN=$v GOFLAGS= go build -trimpath -o "$bin.tmp" .) >"$out/build-$v.log" 2>&1; then
		mv "$bin.tmp" "$bin"
		echo "72-goversions: $v built"
	else
		echo "72-goversions: $v could not be built (no network?), skipped: $(tail -1 "$out/build-$v.log")"
	fi
done
