// A program for the Propeller end-to-end test (internal/driver
// propeller_test.go): hot loops whose rare branches clang lays out inline,
// functions defined in the order opposite to their calls, a function
// never called, and a static function named as one of propeller2.c's.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long rare(long x) {
	printf("rare %ld\n", x);
	return x * 3;
}

__attribute__((noinline)) static long helper(long x) {
	return x % 7 == 3 ? x / 2 : x + 11;
}

long other(long x);

__attribute__((noinline)) long never(long x) {
	for (long i = 0; i < x; i++)
		x ^= i * 7;
	return x;
}

__attribute__((noinline)) long mix(long x, long i) {
	if (i % 1000 == 999)
		x += rare(x);
	else if (i % 3 == 0)
		x = x * 5 + 1;
	else
		x = x ^ (x >> 3);
	return x;
}

__attribute__((noinline)) long stepper(long x, long i) {
	switch (i & 7) {
	case 0: return mix(x, i);
	case 1: return helper(x) + 1;
	case 2: return other(x);
	case 7: return mix(x, i) * 2;
	default: return x - i;
	}
}

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 20000, x = 1;
	if (n < 0)
		x = never(-n);
	for (long i = 0; i < n; i++)
		x = stepper(x, i);
	printf("%ld\n", x);
	return 0;
}
