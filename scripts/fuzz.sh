#!/usr/bin/env bash
# Runs every native fuzz target for a while (default 30s each), from the
# seeds in the tests and testdata/fuzz/<target>/ (the hostile inputs of
# issue 11 among them). No minimization: a large seed would stall it.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-30s}
start=$SECONDS
for pkg in $(go list ./...); do
	for f in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $f"
		go test -run "^$" -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 0 "$pkg"
	done
done
echo "fuzz: all targets, $t each, $((SECONDS - start))s"
