#include <stdio.h>
#include <stdlib.h>
int work(int x, int y);
int mix(int n);
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += (i % 7) ? work(i, s) : mix(i);
  printf("%d\n", s);
  return 0;
}
