// interp: a tree-walking interpreter of a small imperative language, the
// C++ workload of `make pgo-eval` (scripts/pgo-eval.sh): virtual calls at
// every node (Expr::eval, Stmt::exec), operators as template
// instantiations, a hot dispatch whose targets PGO can promote.
//
// usage: interp SCRIPT N    runs SCRIPT with the variable n set to N
//
// Language: statements `x = e;`, `mem[e] = e;`, `if (e) {...} else {...}`,
// `while (e) {...}`, `print e;`, `{...}`; expressions over 64-bit integers
// with || && == != < <= > >= + - * / % unary -, variables, numbers,
// mem[e] (a global array of 65536 cells) and parentheses. `#` starts a
// comment.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Env {
	std::vector<long> vars;
	std::vector<long> mem = std::vector<long>(1 << 16);
	unsigned long printed = 0;
};

struct Expr {
	virtual ~Expr() = default;
	virtual long eval(Env &env) const = 0;
};

struct Stmt {
	virtual ~Stmt() = default;
	virtual void exec(Env &env) const = 0;
};

using ExprP = std::unique_ptr<Expr>;
using StmtP = std::unique_ptr<Stmt>;

struct Num final : Expr {
	long v;
	explicit Num(long v) : v(v) {}
	long eval(Env &) const override { return v; }
};

struct Var final : Expr {
	int slot;
	explicit Var(int s) : slot(s) {}
	long eval(Env &env) const override { return env.vars[slot]; }
};

inline long cell(Env &env, long i) { return i & ((1 << 16) - 1); }

struct Load final : Expr {
	ExprP index;
	explicit Load(ExprP i) : index(std::move(i)) {}
	long eval(Env &env) const override { return env.mem[cell(env, index->eval(env))]; }
};

struct Neg final : Expr {
	ExprP x;
	explicit Neg(ExprP x) : x(std::move(x)) {}
	long eval(Env &env) const override { return -x->eval(env); }
};

// Binary operators: one class per operator, from a template.
struct Add { static long apply(long a, long b) { return a + b; } };
struct Sub { static long apply(long a, long b) { return a - b; } };
struct Mul { static long apply(long a, long b) { return a * b; } };
struct Div { static long apply(long a, long b) { return b ? a / b : 0; } };
struct Mod { static long apply(long a, long b) { return b ? a % b : 0; } };
struct Lt { static long apply(long a, long b) { return a < b; } };
struct Le { static long apply(long a, long b) { return a <= b; } };
struct Gt { static long apply(long a, long b) { return a > b; } };
struct Ge { static long apply(long a, long b) { return a >= b; } };
struct Eq { static long apply(long a, long b) { return a == b; } };
struct Ne { static long apply(long a, long b) { return a != b; } };

template <class Op> struct Bin final : Expr {
	ExprP l, r;
	Bin(ExprP l, ExprP r) : l(std::move(l)), r(std::move(r)) {}
	long eval(Env &env) const override { return Op::apply(l->eval(env), r->eval(env)); }
};

template <bool IsAnd> struct Logic final : Expr {
	ExprP l, r;
	Logic(ExprP l, ExprP r) : l(std::move(l)), r(std::move(r)) {}
	long eval(Env &env) const override {
		long a = l->eval(env) != 0;
		if (IsAnd ? !a : a)
			return a;
		return r->eval(env) != 0;
	}
};

struct Assign final : Stmt {
	int slot;
	ExprP value;
	Assign(int s, ExprP v) : slot(s), value(std::move(v)) {}
	void exec(Env &env) const override { env.vars[slot] = value->eval(env); }
};

struct Store final : Stmt {
	ExprP index, value;
	Store(ExprP i, ExprP v) : index(std::move(i)), value(std::move(v)) {}
	void exec(Env &env) const override {
		long i = index->eval(env);
		env.mem[cell(env, i)] = value->eval(env);
	}
};

struct Block final : Stmt {
	std::vector<StmtP> body;
	void exec(Env &env) const override {
		for (const auto &s : body)
			s->exec(env);
	}
};

struct If final : Stmt {
	ExprP cond;
	StmtP then, otherwise;
	void exec(Env &env) const override {
		if (cond->eval(env))
			then->exec(env);
		else if (otherwise)
			otherwise->exec(env);
	}
};

struct While final : Stmt {
	ExprP cond;
	StmtP body;
	void exec(Env &env) const override {
		while (cond->eval(env))
			body->exec(env);
	}
};

struct Print final : Stmt {
	ExprP value;
	explicit Print(ExprP v) : value(std::move(v)) {}
	void exec(Env &env) const override {
		char buf[32];
		int n = snprintf(buf, sizeof buf, "%ld\n", value->eval(env));
		fwrite(buf, 1, n, stdout);
		env.printed++;
	}
};

[[noreturn]] void fail(const char *what, int line) {
	fprintf(stderr, "interp: line %d: %s\n", line, what);
	exit(2);
}

// Parser: recursive descent over the source text.
class Parser {
  public:
	explicit Parser(std::string src) : s(std::move(src)) {}

	std::unique_ptr<Block> program() {
		auto b = std::make_unique<Block>();
		while (skip(), pos < s.size())
			b->body.push_back(statement());
		return b;
	}

	int slot(const std::string &name) {
		auto it = slots.find(name);
		if (it != slots.end())
			return it->second;
		int n = (int)slots.size();
		slots[name] = n;
		return n;
	}

	size_t numSlots() const { return slots.size(); }

  private:
	std::string s;
	size_t pos = 0;
	int line = 1;
	std::map<std::string, int> slots;

	void skip() {
		while (pos < s.size()) {
			if (s[pos] == '#') {
				while (pos < s.size() && s[pos] != '\n')
					pos++;
			} else if (isspace((unsigned char)s[pos])) {
				line += s[pos] == '\n';
				pos++;
			} else {
				break;
			}
		}
	}

	bool accept(const char *tok) {
		skip();
		size_t n = strlen(tok);
		if (s.compare(pos, n, tok) != 0)
			return false;
		if (isalpha((unsigned char)tok[0]) && pos + n < s.size() && isalnum((unsigned char)s[pos + n]))
			return false;
		pos += n;
		return true;
	}

	void expect(const char *tok) {
		if (!accept(tok))
			fail((std::string("expected ") + tok).c_str(), line);
	}

	std::string ident() {
		skip();
		size_t start = pos;
		while (pos < s.size() && (isalnum((unsigned char)s[pos]) || s[pos] == '_'))
			pos++;
		if (start == pos || isdigit((unsigned char)s[start]))
			fail("expected a name", line);
		return s.substr(start, pos - start);
	}

	StmtP block() {
		expect("{");
		auto b = std::make_unique<Block>();
		while (!accept("}"))
			b->body.push_back(statement());
		return b;
	}

	StmtP statement() {
		if (accept("{")) {
			pos--;
			return block();
		}
		if (accept("while")) {
			auto w = std::make_unique<While>();
			expect("(");
			w->cond = expr();
			expect(")");
			w->body = block();
			return w;
		}
		if (accept("if")) {
			auto i = std::make_unique<If>();
			expect("(");
			i->cond = expr();
			expect(")");
			i->then = block();
			if (accept("else"))
				i->otherwise = accept("if") ? (pos -= 2, statement()) : block();
			return i;
		}
		if (accept("print")) {
			auto p = std::make_unique<Print>(expr());
			expect(";");
			return p;
		}
		if (accept("mem")) {
			expect("[");
			ExprP index = expr();
			expect("]");
			expect("=");
			auto st = std::make_unique<Store>(std::move(index), expr());
			expect(";");
			return st;
		}
		int v = slot(ident());
		expect("=");
		auto a = std::make_unique<Assign>(v, expr());
		expect(";");
		return a;
	}

	ExprP expr() { return orExpr(); }

	ExprP orExpr() {
		ExprP l = andExpr();
		while (accept("||"))
			l = std::make_unique<Logic<false>>(std::move(l), andExpr());
		return l;
	}

	ExprP andExpr() {
		ExprP l = compare();
		while (accept("&&"))
			l = std::make_unique<Logic<true>>(std::move(l), compare());
		return l;
	}

	ExprP compare() {
		ExprP l = sum();
		for (;;) {
			if (accept("=="))
				l = std::make_unique<Bin<Eq>>(std::move(l), sum());
			else if (accept("!="))
				l = std::make_unique<Bin<Ne>>(std::move(l), sum());
			else if (accept("<="))
				l = std::make_unique<Bin<Le>>(std::move(l), sum());
			else if (accept(">="))
				l = std::make_unique<Bin<Ge>>(std::move(l), sum());
			else if (accept("<"))
				l = std::make_unique<Bin<Lt>>(std::move(l), sum());
			else if (accept(">"))
				l = std::make_unique<Bin<Gt>>(std::move(l), sum());
			else
				return l;
		}
	}

	ExprP sum() {
		ExprP l = product();
		for (;;) {
			if (accept("+"))
				l = std::make_unique<Bin<Add>>(std::move(l), product());
			else if (accept("-"))
				l = std::make_unique<Bin<Sub>>(std::move(l), product());
			else
				return l;
		}
	}

	ExprP product() {
		ExprP l = unary();
		for (;;) {
			if (accept("*"))
				l = std::make_unique<Bin<Mul>>(std::move(l), unary());
			else if (accept("/"))
				l = std::make_unique<Bin<Div>>(std::move(l), unary());
			else if (accept("%"))
				l = std::make_unique<Bin<Mod>>(std::move(l), unary());
			else
				return l;
		}
	}

	ExprP unary() {
		if (accept("-"))
			return std::make_unique<Neg>(unary());
		return primary();
	}

	ExprP primary() {
		if (accept("(")) {
			ExprP e = expr();
			expect(")");
			return e;
		}
		skip();
		if (pos < s.size() && isdigit((unsigned char)s[pos])) {
			long v = 0;
			while (pos < s.size() && isdigit((unsigned char)s[pos]))
				v = v * 10 + (s[pos++] - '0');
			return std::make_unique<Num>(v);
		}
		if (accept("mem")) {
			expect("[");
			ExprP index = expr();
			expect("]");
			return std::make_unique<Load>(std::move(index));
		}
		return std::make_unique<Var>(slot(ident()));
	}
};

std::string readFile(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	std::string s;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		s.append(buf, n);
	fclose(f);
	return s;
}

} // namespace

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: interp SCRIPT N\n");
		return 2;
	}
	Parser p(readFile(argv[1]));
	int n = p.slot("n");
	std::unique_ptr<Block> prog = p.program();
	Env env;
	env.vars.assign(p.numSlots(), 0);
	env.vars[n] = atol(argv[2]);
	prog->exec(env);
	return env.printed == 0;
}
