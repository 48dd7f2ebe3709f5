// The C++ test program of the .llvm_bb_addr_map reader: a landing pad.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) int check(int x) {
	if (x % 7 == 3)
		throw std::runtime_error("bad");
	return x * 2;
}

int main(int argc, char **) {
	int sum = 0;
	for (int i = 0; i < argc * 100; i++) {
		try {
			sum += check(i);
		} catch (const std::exception &) {
			sum--;
		}
	}
	std::printf("%d\n", sum);
	return 0;
}
