#include <cstdio>
#include <cstdlib>
struct Base { virtual int func(int a, int b) = 0; virtual ~Base() {} };
struct Derived1 : Base { int func(int a, int b) override { return a * b; } };
namespace { struct Derived2 : Base { int func(int a, int b) override { return a * (a - b); } }; }
__attribute__((noinline)) Base *createType(int i) { if (i % 4 == 0) return new Derived1(); return new Derived2(); }
static inline int call_it(Base *b, int i) { return b->func(i, i + 1); }
__attribute__((noinline)) int loop_func(int i, int a, int b) {
  Base *ptr = createType(i);
  int sum = ptr->func(a, b);
  sum += call_it(ptr, i);
  delete ptr;
  return sum;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  for (int i = 0; i < n; i++) s += loop_func(i, i + 1, i + 2);
  printf("%d\n", s);
  return 0;
}
