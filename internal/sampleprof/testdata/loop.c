/* A small program for the clang -fprofile-sample-use acceptance test. */
__attribute__((noinline)) int bar(int x) {
  if (x % 3)
    return x * 3 + 1;
  return x / 2;
}

int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 100000 + argc; i++)
    s += bar(i);
  return s & 1;
}
