// nonpie: a CPU-bound workload built non-PIE (ET_EXEC at 0x400000) whose
// code lies above 0x900000: nonpie-pad.S puts 6 MiB of cold functions
// (cold_0 ... cold_95, never run) in .text.unlikely, which the linker
// places before the program's own .text. A call-chain address perf prints
// relative to the binary (a file offset, 0x600000 and up) then falls
// inside the binary's absolute mapping too: a reader that takes it for
// absolute puts the sample 0x400000 lower, in a cold function.
//
// Hot functions: checksum (a pure loop), render (snprintf through the
// PLT), shuffle (memcpy through the PLT), and their driver run_round.
// Usage: nonpie ROUNDS (the output is one line, the same for the same
// ROUNDS).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF 4096

static unsigned char buf[BUF];
static char line[256];

__attribute__((noinline)) uint64_t checksum(const unsigned char *p, size_t n) {
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

// render formats a few numbers: most of its time is in libc's snprintf.
__attribute__((noinline)) size_t render(uint64_t h, int round) {
	size_t total = 0;
	for (int i = 0; i < 8; i++)
		total += (size_t)snprintf(line, sizeof line, "%d:%d:%llx:%.3f", round, i,
					  (unsigned long long)(h >> i), (double)(h & 0xffff) / (i + 1));
	return total;
}

// shuffle moves short runs around with memcpy: lengths vary, so every copy
// is a call through memcpy@plt.
__attribute__((noinline)) void shuffle(uint64_t seed, int n) {
	for (int i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t len = 1 + (seed >> 59);
		size_t from = (seed >> 20) % (BUF - 32), to = (seed >> 40) % (BUF - 32);
		memcpy(buf + to, buf + from, len);
	}
}

__attribute__((noinline)) uint64_t run_round(int round) {
	shuffle((uint64_t)round, 512);
	uint64_t h = checksum(buf, BUF);
	return h + render(h, round);
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 20000;
	for (int i = 0; i < BUF; i++)
		buf[i] = (unsigned char)(i * 31 + 7);
	uint64_t acc = 0;
	for (int r = 0; r < rounds; r++)
		acc += run_round(r);
	printf("%llx\n", (unsigned long long)acc);
	return 0;
}
