#!/usr/bin/env bash
# Checks the import graph: data flows one way, parse → address space →
# aggregate → symbolize → write, and a stage never imports a later one.
# Every internal package has a rank below; a package may import packages of
# its own rank or lower. A package missing from the table fails the check,
# so that a new package gets its place in the pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A rank=(
	# utilities, usable by every stage
	[atomicfile]=0 [densemap]=0 [leb128]=0 [slab]=0 [hexnum]=0 [cxxheap]=0 [testutil]=0 [testutil/profwrite]=0 [inflate]=0 [quote]=0 [mmapfile]=0 [progress]=0 [dwarfread]=0
	# the record model every sample source produces
	[record]=0
	# parse: what perf and the compilers wrote
	[perfscript]=1 [perfdata]=1 [perfdatafile]=1 [instrprof]=1 [instrprof/raw]=1 [instrprof/indexed]=1 [instrprof/text]=1 [instrprof/memprof]=1 [instrprof/ondisk]=1 [profformat]=1 [pprofread]=1 [contprof]=1
	[sampleprof]=1 [dataaccess]=1
	# the per-process address spaces; the object files
	[addrspace]=2 [perfsyms]=2 [locate]=2 [binary]=2 [binary/insn]=2 [binary/x86]=2 [binary/arm64]=2 [binary/pseudoprobe]=2 [binary/sectionreader]=2 [binary/bbaddrmap]=2
	# aggregate: counts
	[aggregate]=3 [instrprof/merge]=3 [fpskid]=3 [unwind]=3
	# symbolize
	[symbolize]=4 [memprofsym]=4
	# write: profiles from counts and symbols; reports
	[generate]=5 [boltprof]=5 [csprofile]=5 [pprofout]=5 [rawprof]=5 [addrprof]=5 [profshow]=5 [profoverlap]=5 [proforder]=5 [propeller]=5
	# the pipelines in one function each: conversion (driver), merge (profmerge)
	[driver]=6 [profmerge]=6
)
mod=$(go list -m)
fail=0
while read -r pkg imports; do
	[[ $pkg == "$mod/internal/"* ]] || continue
	name=${pkg#"$mod/internal/"}
	if [[ -z ${rank[$name]+x} ]]; then
		echo "check-imports: internal/$name has no rank in scripts/check-imports.sh" >&2
		fail=1
		continue
	fi
	for imp in $imports; do
		[[ $imp == "$mod/internal/"* ]] || continue
		dep=${imp#"$mod/internal/"}
		if [[ -n ${rank[$dep]+x} && ${rank[$dep]} -gt ${rank[$name]} ]]; then
			echo "check-imports: internal/$name (stage ${rank[$name]}) imports internal/$dep, a later stage (${rank[$dep]})" >&2
			fail=1
		fi
	done
done < <(go list -f '{{.ImportPath}} {{join .Imports " "}}' ./internal/...)
exit $fail
