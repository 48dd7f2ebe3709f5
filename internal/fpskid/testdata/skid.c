// Hot code whose frame is not set up when perf samples it, for the
// frame-pointer repair (package unwind). Built by build.sh (skid.elf) and
// by the driver's recorded test, with -fno-omit-frame-pointer
// -momit-leaf-frame-pointer: leaves have no frame, other functions do.
#include <stdlib.h>

// frameless is a hot leaf without a frame: the frame-pointer walk skips
// its caller.
__attribute__((noinline)) long frameless(long n) {
	long s = 0;
	for (long i = 0; i < n; i++)
		s = s * 31 + (i ^ (s >> 7));
	return s;
}

// tiny sets up a frame (it takes its address) around a tiny body: many of
// its samples fall in its prologue and epilogue.
__attribute__((noinline)) long tiny(long x) {
	long *volatile fp = __builtin_frame_address(0);
	return x * 3 + ((long)fp & 1);
}

// via_tail tail-calls frameless: it leaves no frame either.
__attribute__((noinline)) long via_tail(long n) { return frameless(n ^ 1); }

__attribute__((noinline)) long run_frameless(long n) { return frameless(n) + 1; }

__attribute__((noinline)) long run_tail(long n) { return via_tail(n) + 2; }

__attribute__((noinline)) long run_tiny(long n) {
	long s = 0;
	for (long i = 0; i < n; i++)
		s += tiny(i);
	return s;
}

// run_two calls tiny from two places: which one a sample came from is not
// in the code.
__attribute__((noinline)) long run_two(long n) {
	long s = 0;
	for (long i = 0; i < n; i++)
		s += tiny(i) ^ tiny(s);
	return s;
}

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long s = run_frameless(n) + run_tail(n) + run_tiny(n) + run_two(n / 2);
	return (int)(s & 1);
}
