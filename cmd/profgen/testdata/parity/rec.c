#include <stdio.h>
int fa(int n);
int fb(int n) {
  if(n > 10) return fb(n / 2);
  return fa(n - 1);
}
int fa(int n) {
  if(n < 2) return n;
  if(n % 2) return fb(n - 1);
  return fa(n - 1);
}
void foo() {
  int s, i = 0;
  while (i++ < 10000)
    s += fa(i);
  printf("sum is %d\n", s);
}
int main() {
  foo();
  return 0;
}
