// anonns.cc: C++ classes and functions in an anonymous namespace, for which
// gcc writes no DW_AT_linkage_name (only DW_AT_name: every `eval` is
// "eval"). profgen names them by their ELF symbols' mangled names
// (internal/symbolize/symnames.go). Built by build.sh (g++-12 -O2 -g).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

struct Expr {
	virtual ~Expr() = default;
	virtual long eval(long x) const = 0;
};

struct Num : Expr {
	long v;
	explicit Num(long v) : v(v) {}
	long eval(long) const override { return v; }
};

struct Var : Expr {
	long eval(long x) const override { return x; }
};

template <typename Op> struct Bin : Expr {
	std::unique_ptr<Expr> l, r;
	Bin(Expr *l, Expr *r) : l(l), r(r) {}
	long eval(long x) const override { return Op::apply(l->eval(x), r->eval(x)); }
};

struct Add {
	static long apply(long a, long b) { return a + b; }
};
struct Mul {
	static long apply(long a, long b) { return a * b; }
};

// mix has an out-of-line copy (its address is taken) and is inlined
// into run.
long mix(long a) { return (a * 2654435761u) ^ (a >> 7); }

long (*volatile mixer)(long) = mix;

long run(const Expr &e, long n) {
	long s = 0;
	for (long i = 0; i < n; i++)
		s += mix(e.eval(i)) + mixer(i);
	return s;
}

} // namespace

namespace calc {
// square has a linkage name: its namespace is named.
__attribute__((noinline)) long square(long x) { return x * x; }
} // namespace calc

int main(int argc, char **argv) {
	long n = argc > 1 ? std::atol(argv[1]) : 1000;
	std::unique_ptr<Expr> e(new Bin<Add>(new Bin<Mul>(new Var, new Num(3)), new Num(calc::square(argc))));
	std::printf("%ld\n", run(*e, n));
	return 0;
}
