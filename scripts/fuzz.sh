#!/usr/bin/env bash
# Runs every native fuzz target for a while (default 30s each), from the
# seeds in the tests and testdata/fuzz/<target>/ (the hostile inputs of
# issue 11 among them). No minimization: a large seed would stall it.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-30s}
start=$SECONDS
# fuzz_one PKG TARGET: fuzz one target. Go's fuzzer can end a run that
# found nothing with "context deadline exceeded" when a worker answers
# late on a loaded machine; that run is tried once more. A failing input
# (written under testdata/fuzz) always fails.
fuzz_one() {
	local log
	log=$(mktemp)
	if go test -run "^$" -fuzz "^$2\$" -fuzztime "$t" -fuzzminimizetime 0 "$1" 2>&1 | tee "$log"; then
		rm -f "$log"
		return 0
	fi
	if grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input written" "$log"; then
		rm -f "$log"
		echo "fuzz: $2: the fuzzer timed out a worker without a failing input; once more"
		go test -run "^$" -fuzz "^$2\$" -fuzztime "$t" -fuzzminimizetime 0 "$1"
		return
	fi
	rm -f "$log"
	return 1
}
for pkg in $(go list ./...); do
	for f in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $f"
		fuzz_one "$pkg" "$f"
	done
done
echo "fuzz: all targets, $t each, $((SECONDS - start))s"
