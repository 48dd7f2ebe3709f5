// A small program for the pseudo-probe decoder tests: inlining two levels
// deep, a loop, an indirect call, recursion and a cold path.
#include <stdio.h>
#include <stdlib.h>

__attribute__((cold, noinline)) static void fail(const char *msg, int v) {
	fprintf(stderr, "%s %d\n", msg, v);
	exit(2);
}

static inline int square(int x) { return x * x; }

static inline int sum_squares(const int *v, int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s += square(v[i]);
	return s;
}

__attribute__((noinline)) static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }

__attribute__((noinline)) int apply(int (*f)(int), int x) {
	if (x < -1000000) {
		fail("too small:", x);
		fail("again:", x);
	}
	return f(x);
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 20;
	int v[64];
	for (int i = 0; i < 64; i++)
		v[i] = i ^ n;
	int s = sum_squares(v, 64);
	s += fib(n % 25);
	s += apply(n & 1 ? twice : negate, s);
	printf("%d\n", s);
	return 0;
}
