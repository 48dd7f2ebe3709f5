// half-inline.c: one call of work inlined, one not, on the same line (the
// same call site to a sample profile); testdata/parity/README.
#include <stdio.h>
int work(int n) {
  int s = 0;
  for (int i = 0; i < n % 64; i++)
    s += i * n;
  return s;
}
int main(void) {
  long t = 0;
  for (int i = 0; i < 20000; i++) {
    int a, b;
    [[clang::always_inline]] a = work(i); [[clang::noinline]] b = work(i + 1);
    t += a + b;
  }
  printf("%ld\n", t);
  return 0;
}
