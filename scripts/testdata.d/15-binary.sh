#!/usr/bin/env bash
# Builds a few MB of generated C code with gcc-12 and clang-19 into
# DIR/binary/*.elf. internal/binary compares its decoding of them with
# llvm-profgen-19 --show-disassembly-only and llvm-objdump-19.
set -euo pipefail
out="${1:?usage: 15-binary.sh DIR}/binary"
mkdir -p "$out"
src="$out/gen.c"
if [ ! -s "$src" ]; then
	# Varied shapes: switches (jump tables), loops that vectorize, calls
	# through pointers, tail calls, divisions, floating point, string work.
	awk -v n=1200 'BEGIN {
		print "#include <string.h>\n#include <stdlib.h>\n#include <math.h>"
		print "typedef int (*fn)(int, const int *, int);\nvolatile int sink;"
		for (i = 0; i < n; i++) {
			print "__attribute__((noinline)) int f" i "(int x, const int *a, int m) {"
			print "  int s = x * " i+3 ";"
			print "  for (int k = 0; k < m; k++) s += a[k] * " (i%7)+1 " ^ (a[k] >> " (i%5)+1 ");"
			print "  switch ((x + " i ") & 7) {"
			for (c = 0; c < 7; c++) print "  case " c ": s ^= " (i*c)%97 " + x / " c+2 "; break;"
			print "  default: s += (int)sqrt((double)(x & 0xffff) * " (i%11)+1 ".5);"
			print "  }"
			if (i > 0) print "  if (s & 1) return f" i-1 "(s >> 1, a, m > 0 ? m - 1 : 0);"
			print "  char buf[32]; memset(buf, s, sizeof buf); s += (int)strlen(buf + (x & 15));"
			print "  return s;"
			print "}"
		}
		printf "static const fn table[] = {"
		for (i = 0; i < n; i++) printf "f%d,", i
		print "};"
		print "int main(int argc, char **argv) {"
		print "  int a[64]; for (int i = 0; i < 64; i++) a[i] = i * argc;"
		print "  int s = 0; for (int i = 0; i < 100000; i++) s += table[(i * 7919) % " n "](i, a, i & 63);"
		print "  sink = s; (void)argv; return 0;"
		print "}"
	}' >"$src"
fi
build() {
	local cc=$1 name=$2
	shift 2
	command -v "$cc" >/dev/null || { echo "15-binary: $cc missing, skipping $name"; return 0; }
	[ -s "$out/$name" ] || "$cc" "$@" -o "$out/$name" "$src" -lm
}
build gcc-12 gcc-O2.elf -O2 -g
build clang-19 clang-O3-avx2-cet.elf -O3 -mavx2 -fcf-protection=full -fPIE -pie
build clang-19 clang-O2-nopie.elf -O2 -g -fno-pie -no-pie
