volatile int g;
__attribute__((noinline)) int bar(int x) { if (x & 1) g++; return x * 3; }
int main(int argc, char **argv) { int s = 0; for (int i = 0; i < 100000; i++) s += bar(i + argc); return s & 1; }
