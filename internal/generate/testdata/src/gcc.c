/* A C program for gcc-12 -O2 -g -fcf-protection: clones (.part, .isra,
   .constprop), inlining and discriminators as gcc emits them. */
#include <stdio.h>
#include <stdlib.h>

static int table[4096];

static int __attribute__((noinline)) lookup(int i, int scale) {
  if (i < 0)
    return -1;
  return table[i & 4095] * scale;
}

/* Called with a constant argument from several places: gcc makes a
   .constprop clone. */
static long __attribute__((noinline)) weigh(const int *t, int n, int k) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += (long)t[i] * k + (t[i] >> (k & 7));
  return s;
}

static inline unsigned step(unsigned x) { return x * 1103515245u + 12345u; }

static void fill(int seed) {
  for (int i = 0; i < 4096; i++) {
    seed = step(seed);
    table[i] = seed >> 16;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  long sum = 0;
  if (__builtin_expect(n < 0, 0)) {
    fprintf(stderr, "negative count %d\n", n);
    abort();
  }
  fill(n);
  for (int i = 0; i < n; i++) {
    unsigned s = step((unsigned)i);
    sum += lookup((int)(s & 8191), 3);
    if (i % 7 == 0)
      sum ^= lookup(i, 5);
  }
  sum += weigh(table, 4096, 9) + weigh(table, 100, 9);
  printf("%ld\n", sum);
  return 0;
}
