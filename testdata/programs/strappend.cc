// strappend.cc: a C++ loop whose hot calls go through PLT stubs of mangled
// libstdc++ functions (std::string::_M_append), for the names of PLT stubs
// in pprof (perf report names them by the demangled target and @plt).
// Built by build.sh (g++-12 -O2 -g).
#include <cstdio>
#include <cstdlib>
#include <string>

__attribute__((noinline)) unsigned long build(long n) {
	unsigned long sum = 0;
	std::string s;
	for (long i = 0; i < n; i++) {
		s.append("ab", 2);
		if (s.size() > 4096) {
			sum += s.size();
			s.clear();
		}
	}
	return sum + s.size();
}

int main(int argc, char **argv) {
	printf("%lu\n", build(argc > 1 ? atol(argv[1]) : 50000000));
	return 0;
}
