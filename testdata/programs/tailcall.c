/*
 * tailcall: calls in tail position, which clang -O2 compiles to jumps, so
 * that a call stack misses the frames of the functions that made them:
 * direct tail calls between functions, mutual recursion through tail
 * calls (ping/pong), indirect tail calls through a table, and a deep
 * non-tail recursion beside them.
 *
 * usage: tailcall [N]    iterations (default 1000)
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned sink;

NOINLINE static unsigned leaf(unsigned x)
{
	unsigned s = 0;
	for (unsigned i = 0; i < (x & 31) + 8; i++)
		s += i * x + (s >> 3);
	return s;
}

NOINLINE static unsigned mid2(unsigned x)
{
	sink += x;
	return leaf(x * 3 + 1); /* tail call */
}

NOINLINE static unsigned mid1(unsigned x)
{
	if (x & 1)
		return mid2(x + 7); /* tail call */
	return leaf(x ^ 0x55);      /* tail call */
}

NOINLINE static unsigned top(unsigned x)
{
	unsigned r = mid1(x); /* a real call: top stays on the stack */
	return r + sink;
}

NOINLINE static unsigned ping(unsigned n, unsigned acc);

NOINLINE static unsigned pong(unsigned n, unsigned acc)
{
	if (n == 0)
		return acc;
	return ping(n - 1, acc * 31 + n); /* tail call */
}

NOINLINE static unsigned ping(unsigned n, unsigned acc)
{
	if (n == 0)
		return acc;
	acc += leaf(n);
	return pong(n - 1, acc ^ n); /* tail call */
}

typedef unsigned (*fn_t)(unsigned);
static fn_t table[] = {leaf, mid1, mid2};

NOINLINE static unsigned dispatch(unsigned x)
{
	return table[x % 3](x); /* indirect tail call */
}

NOINLINE static unsigned long depth(unsigned n)
{
	if (n == 0)
		return leaf(n);
	return depth(n - 1) * 3 + leaf(n); /* not a tail call */
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
	unsigned long total = 0;
	for (unsigned i = 0; i < n; i++) {
		total += top(i);
		total += ping(i % 40, i);
		total += dispatch(i);
		if (i % 16 == 0)
			total += depth(i % 120);
	}
	printf("%lu\n", total);
	return 0;
}
