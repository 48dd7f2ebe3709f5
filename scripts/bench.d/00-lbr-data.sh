#!/usr/bin/env bash
# Builds the large LBR trace the benchmarks use, $TESTDATA/lbr/sqlite/bench.script
# (~120 MB, single-process layout; see tools/lbrgen/README.md). Only `make
# bench` needs it, so `make testdata` leaves it out. Cached like the rest.
set -euo pipefail
data=${2:?usage: 00-lbr-data.sh PROFGEN TESTDATA}
LBRGEN_BENCH=1 bash "$(dirname "$0")/../testdata.d/20-lbr.sh" "$data"
