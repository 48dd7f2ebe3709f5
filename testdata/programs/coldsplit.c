/*
 * coldsplit: what gcc-12 -O2 does to a program's layout, for the tests of
 * GCC-built binaries. checksum's rare branch is split off into
 * checksum.cold in .text.unlikely, far from checksum; mix is marked hot
 * (.text.hot) and report cold (.text.unlikely); with -fcf-protection
 * checksum and main (not static) start with endbr64.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long rare;

__attribute__((noinline, cold)) static void report(unsigned long v)
{
	rare += v % 7;
	if (rare == 1)
		fprintf(stderr, "rare %lu\n", rare);
}

__attribute__((noinline, hot)) static unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

__attribute__((noinline)) unsigned long checksum(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++) {
		s += mix(i);
		if (__builtin_expect((s & 63) == 0, 0)) {
			report(s);
			s ^= rare;
		}
	}
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 100000;
	printf("%lu %lu\n", checksum(n), rare);
	return 0;
}
