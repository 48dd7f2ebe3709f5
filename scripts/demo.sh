#!/usr/bin/env bash
# Runs profgen on the embedded example. Filled in by the symbolization work.
set -euo pipefail
bin=${1:?usage: demo.sh PROFGEN}
"$bin" --help >/dev/null
echo "demo: profgen built; the embedded example comes with symbolization"
