#!/usr/bin/env bash
# Builds the split-DWARF test program (a.c, b.c) three ways, with the same
# code (the script checks), and its traces. Needs clang-19, llvm-dwp-19,
# valgrind and go; run it again after changing a source:
#
#   dwarf5/prog   clang-19 -gsplit-dwarf (DWARF 5): skeleton units; a.dwo and
#                 b.dwo beside it; prog.dwp, the package llvm-dwp-19 made of them
#   dwarf4/prog   the same with -gdwarf-4 (GNU split DWARF, version 2 index)
#   plain/prog    without -gsplit-dwarf
#   lbr.script    LBR samples of dwarf5/prog (tools/lbrgen), named /somewhere/prog
#   hybrid.script the same run's samples with their call chains
#   stack.script  call-stack samples (perf record -g), no branch stacks
#
# DW_AT_comp_dir is "." (-fdebug-compilation-dir): a .dwo file is found
# relative to the working directory, as LLVM looks for it.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../../.. && pwd)
flags=(-O2 -g -fdebug-info-for-profiling -fdebug-compilation-dir=.)
build() { # DIR CLANG-FLAGS...
	local dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	(
		cd "$dir"
		for s in a b; do
			clang-19 "${flags[@]}" "$@" -c "../$s.c" -o "$s.o"
		done
		clang-19 a.o b.o -o prog
		rm a.o b.o
	)
}
build dwarf5 -gsplit-dwarf
build dwarf4 -gsplit-dwarf -gdwarf-4
build plain
for v in 4 5; do
	(cd dwarf$v && llvm-dwp-19 -e prog -o prog.dwp)
done
for b in dwarf4/prog plain/prog; do
	for s in .text .rodata .data .eh_frame; do
		cmp <(llvm-objcopy-19 -O binary --only-section=$s $b /dev/stdout) \
			<(llvm-objcopy-19 -O binary --only-section=$s dwarf5/prog /dev/stdout) ||
			{ echo "build.sh: $b: section $s differs from dwarf5/prog's" >&2; exit 1; }
	done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/lbrgen" ./tools/lbrgen)
"$tmp/lbrgen" -binary dwarf5/prog -path /somewhere/prog -period 997 -procs 1 \
	-single lbr.script -hybrid-single hybrid.script -stack "$tmp/stack" -- 1500
mv "$tmp/stack.script" stack.script
ls -l dwarf4 dwarf5 plain ./*.script
