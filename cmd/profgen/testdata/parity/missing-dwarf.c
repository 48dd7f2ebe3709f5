int foo() {
  return 1;
}

int main() {
  foo();
  return 0;
}
