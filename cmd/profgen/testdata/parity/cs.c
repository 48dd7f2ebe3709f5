#include <stdio.h>
#include <stdlib.h>

int bar(int x, int y) {
  if (x % 3) {
    return x - y;
  }
  return x + y;
}

void foo(int n) {
  int s, i = 0;
  while (i++ < n)
    if (i % 91) s = bar(i, s); else s += 30;
  printf("sum is %d\n", s);
}

int main(int argc, char **argv) {
  foo(argc > 1 ? atoi(argv[1]) : 400000);
  return 0;
}
