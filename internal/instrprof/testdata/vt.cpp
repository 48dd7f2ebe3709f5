#include <cstdlib>
struct B { virtual int f(int) = 0; virtual ~B() {} };
struct D1 : B { int f(int x) override { return x + 1; } };
struct D2 : B { int f(int x) override { return x * 2; } };
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 5, s = 0;
	B *bs[2] = {new D1, new D2};
	for (int i = 0; i < n; i++) s += bs[i % 3 == 0]->f(i);
	return s == 12345;
}
