// forky: a small CPU-bound workload that forks children, for call-stack
// profiling tests. The parent and each child spin in different functions;
// mix() is inlined into its callers at -O2.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile uint64_t sink;

static inline uint64_t mix(uint64_t x) {
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 29;
	return x;
}

__attribute__((noinline)) uint64_t leaf(uint64_t n) {
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++)
		acc += mix(i + acc);
	return acc;
}

__attribute__((noinline)) uint64_t spin(uint64_t n) {
	uint64_t acc = 1;
	for (uint64_t i = 0; i < n; i++) {
		if ((i & 1023) == 0)
			acc += leaf(64);
		acc = mix(acc) + i;
	}
	return acc;
}

__attribute__((noinline)) uint64_t child_work(int id, uint64_t n) {
	uint64_t acc = 0;
	for (int r = 0; r < 4; r++)
		acc += spin(n / 4 + (uint64_t)id);
	return acc;
}

// syscalls spends time in the kernel, so that samples carry kernel frames.
__attribute__((noinline)) void syscalls(int n) {
	for (int i = 0; i < n; i++)
		sink += (uint64_t)getppid();
}

int main(int argc, char **argv) {
	uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 20000000;
	int kids = argc > 2 ? atoi(argv[2]) : 2;
	for (int k = 0; k < kids; k++) {
		pid_t p = fork();
		if (p == 0) {
			sink = child_work(k, n);
			_exit(0);
		}
	}
	sink = spin(n) + leaf(n / 8);
	syscalls(200000);
	while (wait(0) > 0)
		;
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
