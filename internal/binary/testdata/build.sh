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
