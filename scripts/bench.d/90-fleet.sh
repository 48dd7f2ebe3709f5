#!/usr/bin/env bash
# profgen-fleet (issue 29) on one machine: 2,000 perf.data parts of the
# sqlite LBR recordings (multi and reuse, cut by tools/perfsplit), merged
# by build id and written as text and extbinary, by profgen-fleet on the
# embedded prism runner, next to profgen alone over the same parts
# (--skip-symbolization of each, xargs -P one per core, profgen merge,
# --unsymbolized-profile): medians of alternating runs, wall and CPU time
# and peak RSS (of the largest process), and whether the outputs are the
# same bytes. Builds profgen-fleet (a module of its own, fleet/: the first
# build of Beam takes a minute or two). BENCH_RUNS: runs (3).
set -euo pipefail
bin=$(realpath "${1:?usage: 90-fleet.sh PROFGEN TESTDATA}")
data=${2:?usage: 90-fleet.sh PROFGEN TESTDATA}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/bench-lib.sh"
lbr=$data/lbr/sqlite
[ -s "$lbr/multi.perf.data" ] && [ -s "$lbr/reuse.perf.data" ] || { echo "90-fleet: no sqlite LBR recordings; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$_bench_tmp"' EXIT
go build -C "$root" -o "$tmp/perfsplit" ./tools/perfsplit
go build -C "$root/fleet" -o "$tmp/profgen-fleet" ./cmd/profgen-fleet
"$tmp/perfsplit" -parts 2000 -o "$tmp/parts" -name lbr "$lbr/multi.perf.data" "$lbr/reuse.perf.data"
mkdir "$tmp/fleet" "$tmp/addr"
# profgen on one machine: each part converted (one process per core), the
# address profiles merged, then symbolized once per format.
cat >"$tmp/profgen.sh" <<SH
set -e
rm -f "$tmp"/addr/*
ls "$tmp"/parts/*.perf.data | xargs -P $(nproc) -I{} sh -c '"$bin" -q --perfdata "\$1" --binary "$lbr/binary" --skip-symbolization -o "$tmp/addr/\$(basename "\$1").addr"' _ {}
"$bin" merge -o "$tmp/all.addr" "$tmp/addr"
"$bin" -q --unsymbolized-profile "$tmp/all.addr" --binary "$lbr/binary" --format=text -o "$tmp/profgen.text"
"$bin" -q --unsymbolized-profile "$tmp/all.addr" --binary "$lbr/binary" --format=extbinary -o "$tmp/profgen.extbinary"
SH
echo "== profgen-fleet: 2,000 sqlite LBR perf.data parts ($(du -sm "$tmp/parts" | cut -f1) MB) -> text, extbinary, $(nproc) cores"
compare "${BENCH_RUNS:-3}" "profgen-fleet (prism, embedded)" "profgen (xargs -P, merge)" \
	"$tmp/profgen-fleet" --input "$tmp/parts/*.perf.data" --binary "$lbr/binary" --format text,extbinary -o "$tmp/fleet" -- \
	bash "$tmp/profgen.sh"
id=$(cd "$tmp/fleet/lbr" && ls *.text | sed 's/\.text$//')
same=yes
for f in text extbinary; do cmp -s "$tmp/fleet/lbr/$id.$f" "$tmp/profgen.$f" || same=no; done
echo "  outputs byte-identical: $same"
