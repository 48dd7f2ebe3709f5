// Pop order of std::priority_queue (libstdc++) for inline candidates with
// ties, as llvm-profgen's ProfiledCandidateComparer orders them. Built with
// clang++-19 -O1 heap_order.cpp; its output is heap_order.golden.
#include <cstdio>
#include <cstdint>
#include <queue>
#include <vector>
struct C { uint64_t count, size, guid; int id; };
struct Cmp {
  bool operator()(const C &L, const C &R) const {
    if ((L.size == 0 || R.size == 0) && L.size != R.size) return R.size == 0;
    if (L.count != R.count) return L.count < R.count;
    if (L.size != R.size) return L.size > R.size;
    return L.guid < R.guid;
  }
};
int main() {
  uint64_t x = 88172645463325252ull;
  auto rnd = [&]() { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; };
  for (int round = 0; round < 200; round++) {
    std::priority_queue<C, std::vector<C>, Cmp> q;
    int n = 1 + rnd() % 40, id = 0;
    for (int i = 0; i < n; i++) {
      q.push({rnd() % 3, rnd() % 3, rnd() % 2, id++});
      if (rnd() % 4 == 0) { printf("%d ", q.top().id); q.pop(); }
    }
    while (!q.empty()) { printf("%d ", q.top().id); q.pop(); }
    printf("\n");
  }
}
