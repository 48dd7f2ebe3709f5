// The second file of the Propeller end-to-end test program (propeller.c):
// a static function named as one of propeller.c's, so that the cc profile
// tells them apart by their modules (m lines).
__attribute__((noinline)) static long helper(long x) {
	for (int i = 0; i < 3; i++)
		x = x * 31 + (x >> 7) + i;
	return x;
}

long other(long x) { return helper(x) ^ 5; }
