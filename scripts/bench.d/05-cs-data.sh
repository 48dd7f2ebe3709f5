#!/usr/bin/env bash
# Builds the large hybrid (call stack + LBR) trace the CS benchmark uses,
# $TESTDATA/cs/sqlite-bench/hybrid.script (~115 MB; see
# scripts/testdata.d/80-cs.sh). Only `make bench` needs it. Cached.
set -euo pipefail
data=${2:?usage: 05-cs-data.sh PROFGEN TESTDATA}
CS_BENCH=1 bash "$(dirname "$0")/../testdata.d/80-cs.sh" "$data"
