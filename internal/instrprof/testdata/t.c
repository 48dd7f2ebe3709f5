#include <stdlib.h>
#include <string.h>
static int sq(int x) { return x * x; }
static int neg(int x) { return -x; }
int (*pick(int n))(int) { return n & 1 ? sq : neg; }
int both(int a, int b) { return (a > 1 && b < 5) || a == 3; }
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 1, s = 0;
	char buf[128];
	for (int i = 0; i < n * 3; i++) s += pick(i)(i - 3) + both(i, n);
	memset(buf, s & 0xff, (size_t)(n * 9 % 100) + 1);
	memcpy(buf + 64, buf, (size_t)argc * 8);
	return buf[0] == 7;
}
