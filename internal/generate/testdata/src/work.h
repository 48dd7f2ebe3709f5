#pragma once
#include <cstddef>

namespace work {
unsigned long checksum(const unsigned *p, std::size_t n);
unsigned long sort_some(unsigned *p, std::size_t n);
}  // namespace work
