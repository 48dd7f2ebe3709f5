/* The test program of the .llvm_bb_addr_map reader: loops, calls, a
   switch through a jump table (an indirect branch), a tail call. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) int pick(int k, int x) {
	switch (k & 7) {
	case 0: return x + 11;
	case 1: return x * 13;
	case 2: return x - 17;
	case 3: return x ^ 19;
	case 4: return leaf(x) + 23;
	case 5: return x << 2;
	default: return -x;
	}
}

__attribute__((noinline)) int tail(int x) {
	if (x & 1)
		return leaf(x + 1);
	return pick(x, x + 2);
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int sum = 0;
	for (int i = 0; i < n; i++) {
		if (i % 3 == 0)
			sum += leaf(i);
		else if (i % 5 == 0)
			sum += tail(i);
		else
			sum += pick(i, sum);
	}
	printf("%d\n", sum);
	return 0;
}
