__attribute__((noinline)) int work(int x, int y) {
  if (x % 3) return x - y;
  return x + y;
}
__attribute__((noinline)) int mix(int n) {
  int s = 0;
  for (int i = 0; i < n % 50; i++) s += i * n;
  return s;
}
