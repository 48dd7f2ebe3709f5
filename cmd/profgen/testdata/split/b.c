// The other unit of the split-DWARF test program.
void report(int x) { (void)x; }

static inline int twice(int x) { return 2 * x; }

__attribute__((noinline)) int helper(int x) { return twice(x) ^ 5; }

int work(int x) {
	int t = 0;
	for (int i = 0; i < (x & 15); i++)
		t += helper(i + x);
	return t;
}
