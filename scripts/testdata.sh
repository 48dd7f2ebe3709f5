#!/usr/bin/env bash
# Builds the large test programs and traces that are never committed, into
# the directory given as $1. Each step skips itself when a tool it needs is
# missing; tests that need its output skip too.
set -euo pipefail
out=${1:?usage: testdata.sh DIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
for step in "$here"/testdata.d/*.sh; do
	[ -e "$step" ] || continue
	start=$SECONDS
	bash "$step" "$out"
	echo "testdata: $(basename "$step" .sh): $((SECONDS - start))s"
done
