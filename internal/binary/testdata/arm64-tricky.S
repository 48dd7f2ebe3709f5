/* arm64-tricky.S: AArch64 corner cases for the decoder and for
   llvm-profgen's notion of code: instructions of the extensions
   golang.org/x/arch does not decode (LSE, RCPC, SVE, SME, pointer
   authentication, BTI, HBC), every kind of branch, and data in text
   (mapping symbols $d, a literal pool, undefined words). */
	.arch armv9.4-a+sve2+sme+lse+rcpc3+pauth+bti+hbc+mte
	.text
	.globl _start
	.type _start,@function
_start:
	bti c
	bl f_ext
	bl f_branches
	ldr x0, =0x123456789abcdef0
	mov x8, #93
	svc #0
	udf #0
	.ltorg
	.size _start, .-_start

	.p2align 4
	.type f_ext,@function
f_ext:
	paciasp
	ldadd w0, w1, [x2]
	casal x0, x1, [x2]
	swpal w0, w1, [x2]
	ldapr w0, [x1]
	ldapur x0, [x1, #8]
	ptrue p0.s
	ld1w {z0.s}, p0/z, [x0]
	smstart
	smstop
	irg x0, x1
	addg x0, x1, #16, #1
	autiasp
	retaa
	.size f_ext, .-f_ext

	.type f_branches,@function
f_branches:
	bti c
	cbz x0, 1f
	cbnz w1, 1f
	tbz x2, #40, 1f
	tbnz w3, #3, 1f
	b.eq 1f
	bc.ne 1f
	b 1f
1:	blr x4
	blraa x4, x5
	blraaz x6
	blrab x4, sp
	blrabz x6
	br x7
	braa x7, x8
	braaz x9
	brab x7, sp
	brabz x9
	ret x3
	retab
	eretaa
	eretab
	eret
	drps
	/* data in text: a jump table LLVM prints as .word under $d */
	.word 0x14000000, 0x94000000, 0xd65f03c0, 0xffffffff
	brk #1
	hlt #2
	.inst 0x00000001
	.inst 0x04000000
	.inst 0xffffffff
	ret
	.size f_branches, .-f_branches
