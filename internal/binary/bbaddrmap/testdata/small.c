/* A program without headers, for targets without a C library here. */
__attribute__((noinline)) int f(int x) { return x > 3 ? x * 5 : x + 1; }

int g(int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s += f(i);
	return s;
}
