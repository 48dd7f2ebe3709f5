/*
 * jumptab: the control flow BOLT's profile tests need beyond plain calls
 * and loops, built with -Wl,--emit-relocs (build-jumptab.sh):
 *   - a bytecode interpreter whose switch is a jump table, one of whose
 *     cases is the block right after the indirect jump;
 *   - a static function with a switch of its own (clang inlines it into
 *     main), and a static function whose cases are reached through a
 *     table of label addresses (computed goto: data-to-code references
 *     into the middle of a function);
 *   - code outside every function symbol: a stub in a section of its own
 *     with no symbol, an assembly function whose label has no type, and a
 *     local untyped label after a function's end, each calling a C
 *     function.
 *
 * usage: jumptab [N]    rounds (default 2000)
 */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, SUB, MUL, DUP, SWAP, DROP, JNZ, HALT, NOP, NEG, INC };

/* run interprets prog with a value stack; the switch is dense enough for
 * a jump table. */
long run(const unsigned char *prog, long x)
{
	long st[16];
	int sp = 0, pc = 0;
	st[sp++] = x;
	for (;;) {
		unsigned char op = prog[pc++];
		switch (op) {
		case PUSH: st[sp++] = prog[pc++]; break;
		case ADD: sp--; st[sp - 1] += st[sp]; break;
		case SUB: sp--; st[sp - 1] -= st[sp]; break;
		case MUL: sp--; st[sp - 1] *= st[sp]; break;
		case DUP: st[sp] = st[sp - 1]; sp++; break;
		case SWAP: { long t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
		case DROP: sp--; break;
		case JNZ: { unsigned char to = prog[pc++]; if (st[--sp]) pc = to; } break;
		case HALT: return st[sp - 1];
		case NOP: break;
		case NEG: st[sp - 1] = -st[sp - 1]; break;
		case INC: st[sp - 1]++; break;
		default: abort();
		}
	}
}

/* classify is a local function with its own jump table. */
static int classify(int c)
{
	switch (c % 11) {
	case 0: return c * 3;
	case 1: return c + 7;
	case 2: return c ^ 0x55;
	case 3: return c - 2;
	case 4: return c << 1;
	case 5: return c >> 1;
	case 6: return ~c;
	case 7: return c * c;
	case 8: return c | 9;
	case 9: return c & 0x3f;
	default: return 1;
	}
}

/* threaded jumps through a static table of label addresses: the table
 * holds addresses in the middle of the function. */
static long threaded(const unsigned char *ops, int n)
{
	static void *const labels[] = {&&op_add, &&op_mul, &&op_xor, &&op_end};
	long acc = 1;
	int i = 0;
	goto *labels[ops[i]];
op_add:
	acc += i;
	goto *labels[ops[++i % n]];
op_mul:
	acc = acc * 3 + 1;
	goto *labels[ops[++i % n]];
op_xor:
	acc ^= (long)i << 3;
	if (i > 40)
		goto op_end;
	goto *labels[ops[++i % n]];
op_end:
	return acc;
}

/* leaf is called from the stub below. */
__attribute__((noinline)) long leaf(long x)
{
	return x * 2 + 1;
}

/* The stubs, each leaf(x) + x, and what BOLT makes of them:
 *   - .Lstub, in a section of its own with no symbol (stub_entry[0]
 *     points to it): a function named after the section's symbol,
 *     .stubtext/1;
 *   - untyped, a global label without a type, in .text: a function;
 *   - local_untyped, a local label without a type in .text right after
 *     the function untyped_owner (size 1; stub_entry[1] points to it): a
 *     function too, local_untyped/1. */
#define STUB_BODY "	push %rbx\n	mov %rdi, %rbx\n	call leaf\n	add %rbx, %rax\n	pop %rbx\n	ret\n"
__asm__(".pushsection .stubtext, \"ax\", @progbits\n"
	".Lstub:\n" STUB_BODY
	".popsection\n"
	".pushsection .data.rel.ro, \"aw\", @progbits\n"
	".p2align 3\n"
	".globl stub_entry\n"
	"stub_entry: .quad .Lstub\n"
	".quad local_untyped\n"
	".popsection\n"
	".text\n"
	".p2align 4\n"
	".globl untyped\n"
	"untyped:\n" STUB_BODY
	".p2align 4\n"
	".type untyped_owner, @function\n"
	"untyped_owner: ret\n"
	".size untyped_owner, 1\n"
	"local_untyped:\n" STUB_BODY);
extern long (*const stub_entry[2])(long);
extern long untyped(long);

static const unsigned char countdown[] = {
	/* x: loop while x != 0: x = x - 1, acc stays on the stack below */
	PUSH, 0, SWAP,             /* acc x */
	DUP, JNZ, 8, DROP, HALT,   /* if x == 0: return acc */
	SWAP, INC, NOP, SWAP,      /* acc+1 x */
	PUSH, 1, SUB, NEG, NEG,    /* x-1 */
	PUSH, 1, JNZ, 3,
};

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	static const unsigned char ops[] = {1, 0, 2, 0, 2, 1, 1, 0};
	long sum = 0;
	for (int r = 0; r < rounds; r++) {
		sum += run(countdown, r % 13);
		sum += classify(r);
		sum += threaded(ops, 8);
		sum += stub_entry[0](r);
		sum += untyped(r);
		sum += stub_entry[1](r);
	}
	printf("%ld\n", sum);
	return 0;
}
