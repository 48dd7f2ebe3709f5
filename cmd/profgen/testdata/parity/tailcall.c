#include <stdio.h>
#include <stdlib.h>
volatile int sink;
__attribute__((noinline)) int leaf(int x) { for (int i = 0; i < x % 13; i++) sink += i; return sink; }
__attribute__((noinline)) int mid2(int x) { sink++; return leaf(x + 1); }
__attribute__((noinline)) int mid1(int x) { sink--; return mid2(x * 3); }
__attribute__((noinline)) int top(int x) { if (x & 1) return mid1(x); return mid2(x); }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  for (int i = 0; i < n; i++) s += top(i);
  printf("%d\n", s);
  return 0;
}
