#include "work.h"

#include <algorithm>

namespace work {

static inline unsigned long fold(unsigned long h, unsigned v) {
  return (h ^ v) * 1099511628211ul;
}

__attribute__((noinline)) unsigned long checksum(const unsigned *p, std::size_t n) {
  unsigned long h = 1469598103934665603ul;
  for (std::size_t i = 0; i < n; ++i)
    h = fold(h, p[i]);
  return h;
}

unsigned long sort_some(unsigned *p, std::size_t n) {
  std::sort(p, p + n);
  unsigned long s = 0;
  for (std::size_t i = 0; i + 1 < n; ++i)
    s += p[i + 1] - p[i];
  return s;
}

}  // namespace work
