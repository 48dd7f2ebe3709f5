#!/bin/sh
# Rebuilds the test binaries of the .llvm_bb_addr_map reader (a few KB
# each), linked by lld-22 (clang-19 has no lld of its own here). Each
# exercises a version or feature that TestMatchesLLVM compares field by
# field with llvm-readobj-22 --bb-addr-map.
set -eu
cd "$(dirname "$0")"
MAP="-O2 -ffunction-sections -fbasic-block-address-map"
LD="-fuse-ld=lld --ld-path=$(command -v ld.lld-22) -Wl,--build-id=none"
PGO="-mllvm -pgo-analysis-map=func-entry-count,bb-freq,br-prob"
# Version 2, no features.
clang-19 $MAP $LD -o clang19.elf bbaddr.c
# Version 2: several ranges (a cc profile splitting pick), PGO analysis data.
clang-19 $MAP -fbasic-block-sections=list=sections19.txt $PGO $LD -o clang19-sections-pgo.elf bbaddr.c
# Version 5: call-site end offsets.
clang-22 $MAP $LD -o clang22.elf bbaddr.c
# Version 5: several ranges, a path-cloned block (10 along 8->10 in main), block
# hashes. clang-22's hashes depend on heap addresses: it runs without address
# space randomization (setarch -R) to give the same bytes every time.
setarch "$(uname -m)" -R clang-22 $MAP -fbasic-block-sections=list=sections22.txt -mllvm -emit-bb-hash $LD -o clang22-sections-hash.elf bbaddr.c
# Version 5: PGO analysis data with the post-link counts of a cc profile's g line.
clang-22 $MAP -fbasic-block-sections=list=postlink22.txt -mllvm -pgo-analysis-map=bb-freq,br-prob \
	-mllvm -pgo-analysis-map-emit-bb-sections-cfg $LD -o clang22-postlink.elf bbaddr.c
# Version 5 without block entries, only the entry counts.
clang-22 $MAP -mllvm -pgo-analysis-map=func-entry-count -mllvm -basic-block-address-map-skip-bb-entries \
	$LD -o clang22-omit.elf bbaddr.c
# Version 5: a landing pad (C++).
clang++-22 $MAP $LD -o clang22-eh.elf eh.cc
# A relocatable object: one map section per function, addresses in relocations.
clang-22 $MAP -c -o clang22.o bbaddr.c
# 32-bit addresses (an i386 shared object) and an AArch64 relocatable object.
clang-22 --target=i386-linux-gnu -fPIC $MAP -nostdlib -shared $LD -o i386.so small.c
clang-22 --target=aarch64-linux-gnu $MAP -c -o aarch64.o small.c
# Versions 2 to 5 with every feature each allows (clang-20 and clang-21 are
# not installed to write versions 3 and 4).
yaml2obj-22 versions.yaml -o versions.elf
