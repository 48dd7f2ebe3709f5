/* neverrun.c: a loop gcc-12 vectorizes (with a scalar epilogue: the trip
 * count is not known), around a branch that never runs. gcc-12
 * -fauto-profile crashed on its profile ("internal compiler error:
 * Floating point exception" in the vect pass) while the branch's count was
 * 0 (docs/gcc.md); cmd/profgen TestGCCRowNeverRunBranch compiles it with
 * profgen's profile of testdata/callstack/neverrun.lbr.script. */
#include <stdlib.h>

__attribute__((noipa)) int weigh(const int *flags, int n)
{
  int weight = 0;
  for (int i = 0; i < n; i++)
    if (flags[i] & 0x62)
      weight += flags[i] * 7 + (flags[i] >> 3) * 5;
  return weight;
}

int main(int argc, char **argv)
{
  int flags[64];
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int reps = argc > 2 ? atoi(argv[2]) : 1000;
  int total = 0;
  for (int i = 0; i < 64; i++)
    flags[i] = argc > 3; /* 0 or 1: flags[i] & 0x62 is 0 */
  for (int r = 0; r < reps; r++)
    total += weigh(flags, n);
  return total != 0;
}
