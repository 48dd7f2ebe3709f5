/* prog.c: a tiny program for the internal/binary tests: loops, a switch
   (jump table: indirect jump), calls through a pointer, a tail call. */
static volatile int sink;

__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) int pick(int x) {
  switch (x & 7) {
  case 0: return leaf(x);
  case 1: return x + 11;
  case 2: return x ^ 0x55;
  case 3: return x * 7;
  case 4: return x - 3;
  case 5: return x << 2;
  default: return 0;
  }
}

__attribute__((noinline)) int tail(int x) { return leaf(x + 1); }

int (*volatile fp)(int) = pick;

int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < 1000 + argc; i++) {
    s += fp(i);
    if (i % 3 == 0)
      s += tail(i);
  }
  sink = s;
  return 0;
}
