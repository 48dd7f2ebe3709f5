#!/usr/bin/env bash
# Builds skid.elf from skid.c: clang-19 -O2, frame pointers except in
# leaves, symbols but no DWARF. Checked in; the unit tests read its code.
set -euo pipefail
cd "$(dirname "$0")"
clang-19 -O2 -fno-omit-frame-pointer -momit-leaf-frame-pointer -fno-asynchronous-unwind-tables \
	-Wl,--build-id=none -o skid.elf skid.c
