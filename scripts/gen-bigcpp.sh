#!/usr/bin/env bash
# Generates and builds a large C++ program for the large-binary benchmark:
# FILES translation units of FUNCS functions each (defaults: 34 x 800,
# about 50 MB of x86-64 code with clang-19 -O1), every function a loop
# over a switch with calls to small inline helpers (so that DWARF has
# inlined subroutines), each unit one class template instantiated once
# per function. Deterministic: the same arguments give the same source.
# `bigcpp ROUNDS UNITS` runs the first UNITS units only, so that a profile
# touches a few compilation units of many.
# Usage: gen-bigcpp.sh OUTDIR [FILES] [FUNCS]; writes OUTDIR/src/*.cc and
# OUTDIR/bigcpp (clang-19 -O1 -g), in parallel on every core.
set -euo pipefail
out=${1:?usage: gen-bigcpp.sh OUTDIR [FILES] [FUNCS]}
files=${2:-34}
funcs=${3:-800}
mkdir -p "$out/src" "$out/obj"
for ((f = 0; f < files; f++)); do
	src=$out/src/unit$f.cc
	[ -s "$src" ] && continue
	awk -v f="$f" -v n="$funcs" 'BEGIN {
		printf "#include <cstdint>\nnamespace u%d {\n", f
		print "static inline uint64_t mix(uint64_t x, uint64_t k) { x ^= x >> 29; x *= k | 1; return x ^ (x >> 31); }"
		print "static inline uint64_t step(uint64_t a, uint64_t b) { return a < b ? mix(a, b) : mix(b, a) + 1; }"
		print "template <int N> struct Worker {"
		print "  static uint64_t run(uint64_t x, int rounds) {"
		print "    uint64_t acc = N;"
		print "    for (int i = 0; i < rounds; i++) {"
		print "      switch ((x + i) & 15) {"
		for (c = 0; c < 16; c++)
			printf "      case %d: acc = step(acc + %d, x * %d + i); x = mix(x, acc + %d); break;\n", c, c * 7 + 1, c + 3, c * 13
		print "      }"
		print "    }"
		print "    return acc ^ x;"
		print "  }"
		print "};"
		for (i = 0; i < n; i++)
			printf "uint64_t f%d_%d(uint64_t x, int r) { return Worker<%d>::run(x, r) + %d; }\n", f, i, i, i
		print "}"
		printf "uint64_t unit%d(uint64_t x, int r) {\n  uint64_t s = 0;\n", f
		for (i = 0; i < n; i += 97) printf "  s += u%d::f%d_%d(x + s, r);\n", f, f, i
		print "  return s;\n}"
	}' >"$src.tmp"
	mv "$src.tmp" "$src"
done
main=$out/src/main.cc
rm -f "$out/obj/main.o"
{
	echo '#include <cstdint>'
	echo '#include <cstdio>'
	echo '#include <cstdlib>'
	for ((f = 0; f < files; f++)); do echo "uint64_t unit$f(uint64_t, int);"; done
	echo 'int main(int argc, char **argv) {'
	echo '  int r = argc > 1 ? atoi(argv[1]) : 100; uint64_t s = 1;'
	echo "  int units = argc > 2 ? atoi(argv[2]) : $files;"
	for ((f = 0; f < files; f++)); do echo "  if (units > $f) s += unit$f(s, r);"; done
	echo '  printf("%llu\n", (unsigned long long)s); return 0;'
	echo '}'
} >"$main"
ls "$out"/src/*.cc | xargs -P "$(nproc)" -I{} sh -c 'o='"$out"'/obj/$(basename {} .cc).o; [ -s "$o" ] || clang++-19 -O1 -g -c {} -o "$o"'
clang++-19 -O1 -g "$out"/obj/*.o -o "$out/bigcpp.tmp"
mv "$out/bigcpp.tmp" "$out/bigcpp"
