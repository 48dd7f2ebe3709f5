/* tricky.S: corner cases for the decoder and for llvm-profgen's notion of
   code (every symbol's range is disassembled up to the next symbol). */
	.text
	.globl _start
	.type _start,@function
_start:
	endbr64
	call f_prefixes
	call f_branches
	call *%rax
	call *8(%rip)
	mov $60, %eax
	xor %edi, %edi
	syscall
	ud2
	.size _start, .-_start

	.p2align 4, 0x90
	.type f_prefixes,@function
f_prefixes:
	endbr64
	endbr32
	notrack jmp *%rax
	.byte 0xf2, 0xff, 0xe1 /* bnd jmp *%rcx */
	.byte 0xf2, 0xc3 /* bnd ret */
	rep ret
	rdsspq %rax
	incsspq %rax
	setssbsy
	saveprevssp
	.byte 0x66,0x66,0x2e,0x0f,0x1f,0x84,0x00,0x00,0x00,0x00,0x00
	nopw %cs:0x0(%rax,%rax,1)
	lock addl $1, (%rdi)
	xacquire lock incl (%rdi)
	movq %fs:0x28, %rax
	vpxor %ymm1, %ymm2, %ymm3
	vmovdqu64 (%rdi), %zmm1
	vpaddd %zmm1, %zmm2, %zmm3{%k1}{z}
	andn %eax, %ebx, %ecx
	shlx %rax, %rbx, %rcx
	vfmadd231ps %xmm1, %xmm2, %xmm3
	pause
	lfence
	rdtscp
	tzcnt %rax, %rbx
	popcnt %rax, %rbx
	crc32q %rax, %rbx
	movbe (%rdi), %eax
	xbegin 1f
	xend
1:	xabort $1
	ptwrite %eax
	clflushopt (%rdi)
	clwb (%rdi)
	rdpid %rax
	ret
	.size f_prefixes, .-f_prefixes

	.p2align 4, 0xcc
	.type f_branches,@function
f_branches:
	test %edi, %edi
	je 2f
	jrcxz 2f
	loop 2f
	jmp 3f
2:	jmp *(%rax)
	jmp *%rax
3:	call f_prefixes
	jmp f_prefixes
	.type mid,@function
mid:
	lret
	iretq
	retq $8
	jmp 4f
4:	.byte 0x06, 0x07, 0x27   /* invalid in 64-bit mode */
	.byte 0x0f, 0xff          /* ud0 without modrm */
	nop
	ret
	.size f_branches, .-f_branches
	.size mid, 4b-mid

	.p2align 3
	.type table,@object
table:
	.quad 0x1122334455667788, 0xc3c3c3c3c3c3c3c3
	.size table, 16

	.type after_table,@function
	.globl after_table
after_table:
	xor %eax, %eax
	ret
	.size after_table, .-after_table
	.type dup1,@function
	.type dup2,@function
	.globl dup1
dup1:
dup2:
	.byte 0xe8     /* call truncated at the section end */

	.data
	.globl counter
counter:
	.quad 0

	.section .mytext,"ax",@progbits
	/* no symbol here: llvm-profgen does not decode it */
	nop
	ret
	.type late,@function
late:
	push %rbp
	pop %rbp
	ret
	.size late, .-late
