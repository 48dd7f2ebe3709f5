// coff.cpp: LLVM's coff-profile.test program without the C runtime (no
// printf; lld-link links it alone), for a PE/COFF binary with DWARF.
namespace MyNameSpace1 {

template <typename T1, typename T2> class MyClass {
  void work(T1 map[], T2 n, T2 m) {
    for (int i = 1; i < n; i++) {
      map[i] = map[i - 1] * map[i - 1];
      map[i] += (i * map[i - 1]) / m + i % m;
    }
  }

public:
  void work1(T1 map[], T2 n) { work(map, n, 7); }
  void work2(T1 map[], T2 n) { work(map, n, 3); }
};

} // namespace MyNameSpace1

namespace MyNameSpace2 {

template <typename T1, typename T2> void init(T1 c, T2 *p) {
  for (int i = 0; i < c * 100000; i++) {
    p[i] = i / 3 + (i * i) % 3;
  }
}

volatile int Sink;

__attribute__((noinline)) void print(unsigned short *p, int i) {
  Sink = p[i * i * 100] + p[i * i * 100 + 1] + p[i * i * 100 + 2];
}

} // namespace MyNameSpace2

unsigned short M[300000];

__attribute__((noinline)) int main(int argc, char *argv[]) {
  MyNameSpace2::init(argc, M);
  MyNameSpace1::MyClass<unsigned short, int> Obj;
  for (int i = 0; i <= argc * 100; i++) {
    Obj.work1(&M[argc], argc * 10000);
    Obj.work2(&M[argc * argc], argc * 100000);
  }
  MyNameSpace2::print(M, argc);
  return 0;
}

volatile int Argc = 1;

extern "C" int mainCRTStartup() { return main(Argc, nullptr); }
