// shlibmain.c: a program that spends its time half in itself and half in
// the shared library of shlib.c, which also calls back into it. Usage:
// shlibmain ROUNDS. Built at test time (internal/driver/multibin_test.go).
#include <stdio.h>
#include <stdlib.h>

unsigned shlib_checksum(const unsigned char *p, size_t n);
void shlib_sort(int *v, size_t n);
long shlib_apply(const int *v, size_t n, int (*f)(int));

enum { N = 64 };

// square is the library's callback.
static int square(int x) { return x % 7 == 0 ? x : x * x; }

// fill puts pseudo-random numbers in v: the program's own loop.
static unsigned fill(int *v, size_t n, unsigned seed) {
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 16) % 1000;
	}
	return seed;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	int v[N];
	unsigned seed = 1, sum = 0;
	long total = 0;
	for (int r = 0; r < rounds; r++) {
		seed = fill(v, N, seed);
		shlib_sort(v, N);
		sum += shlib_checksum((const unsigned char *)v, sizeof v);
		total += shlib_apply(v, N, square);
	}
	printf("%u %ld\n", sum, total);
	return 0;
}
