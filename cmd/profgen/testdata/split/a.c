// The split-DWARF test program (build.sh): inlining across static
// functions, inlined code with cold paths moved out of line, and calls
// into the other unit (b.c).
#include <stdlib.h>

int work(int);
void report(int);
volatile int sink;

static inline int check(int x) {
	if (__builtin_expect(x % 1000 == 777, 0)) {
		report(x);
		sink = x * 3;
	}
	return x + 1;
}

static inline int sq(int x) { return check(x) * x; }

static inline int add(int a, int b) { return sq(a) + check(b); }

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int s = 0;
	for (int i = 0; i < n; i++) {
		s = add(s & 7, i) + work(i + argc);
		if (__builtin_expect(s == 12345, 0))
			sink = s;
	}
	sink = s;
	return 0;
}
