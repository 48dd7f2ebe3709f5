// A small program with inlining, loops and calls across translation units,
// the input of generate's tests and of the demo.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "work.h"

namespace {

template <typename T>
struct Accumulator {
  T sum{};
  void add(T v) {
    if (v % 3 == 0)
      sum += v * 2;
    else
      sum += v;
  }
};

inline unsigned mix(unsigned x) {
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}

}  // namespace

static int g_init = std::atoi("7");

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  std::vector<unsigned> v(1024);
  Accumulator<unsigned long> acc;
  for (int i = 0; i < n; ++i) {
    unsigned x = mix(i + g_init);
    v[x & 1023] += x;
    acc.add(x);
    if ((i & 63) == 0)
      acc.sum += work::checksum(v.data(), v.size());
  }
  acc.sum += work::sort_some(v.data(), v.size());
  std::printf("%lu\n", acc.sum);
  return 0;
}
