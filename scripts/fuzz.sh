#!/usr/bin/env bash
# Runs every native fuzz target for a while (default 30s each).
set -euo pipefail
t=${1:-30s}
for pkg in $(go list ./...); do
	for f in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $f"
		go test -run "^$" -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 0 "$pkg"
	done
done
