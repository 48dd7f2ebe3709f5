// shlib.c: the shared library of shlibmain.c, for tests of branch stacks
// that cross from a program into a library and back (built at test time:
// internal/driver/multibin_test.go).
#include <stddef.h>

// shlib_checksum folds a buffer into a word, with a data-dependent branch.
unsigned shlib_checksum(const unsigned char *p, size_t n) {
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
		if (h & 1)
			h = (h >> 3) | (h << 29);
	}
	return h;
}

// shlib_sort sorts v by insertion.
void shlib_sort(int *v, size_t n) {
	for (size_t i = 1; i < n; i++) {
		int x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

// shlib_apply calls back into the program for every element.
long shlib_apply(const int *v, size_t n, int (*f)(int)) {
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += f(v[i]);
	return s;
}
