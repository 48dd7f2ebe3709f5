#!/bin/sh
# Rebuilds the small test binaries checked in next to this script.
# Each is a few KB: -z noseparate-code keeps the segments unpadded.
set -eu
cd "$(dirname "$0")"
LD="-Wl,-z,noseparate-code -Wl,--build-id=sha1"
clang-19 -O2 -g -fPIE -pie $LD -o clang-pie.elf prog.c
clang-19 -O2 -fno-pie -no-pie $LD -o clang-nopie.elf prog.c
clang-19 -O2 -fPIE -pie -fcf-protection=full $LD -o clang-cet.elf prog.c
gcc-12 -O2 -g -fcf-protection=full $LD -o gcc-cet.elf prog.c
# The DWARF of clang-pie.elf kept in a separate file, the binary stripped of it.
objcopy --only-keep-debug clang-pie.elf clang-pie.debug
objcopy --strip-debug clang-pie.elf clang-pie-stripped.elf
# Hand-written corner cases: data and padding in text, prefixes, invalid bytes.
clang-19 -nostdlib -static $LD -o tricky.elf tricky.S
# AArch64 (GNU ld from gcc-aarch64-linux-gnu, sysroot of libc6-dev-arm64-cross),
# pages of 4 KiB so that the files stay small: pointer authentication and
# BTI at function entries (PIE), retaa (non-PIE, Armv8.3), and hand-written
# corner cases.
A64="--target=aarch64-linux-gnu -Wl,-z,max-page-size=4096"
clang-19 $A64 -O2 -g -fPIE -pie -mbranch-protection=standard $LD -o arm64-pie.elf prog.c
clang-19 $A64 -O2 -march=armv8.3-a -mbranch-protection=pac-ret+leaf -fno-pie -no-pie $LD -o arm64-nopie.elf prog.c
clang-19 $A64 -nostdlib -static $LD -o arm64-tricky.elf arm64-tricky.S
# PE images (llvm-profgen's COFF binaries), linked by lld-link alone (no C
# runtime: prog.c needs none) with DWARF and the COFF symbol table.
for t in x86_64:prog.exe aarch64:arm64-prog.exe; do
	clang-22 --target="${t%%:*}-pc-windows-msvc" -O2 -gdwarf -c -o prog.obj prog.c
	lld-link-22 /nodefaultlib /entry:main /subsystem:console /debug:dwarf /Brepro /out:"${t#*:}" prog.obj
done
rm -f prog.obj
