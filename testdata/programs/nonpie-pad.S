// 6 MiB of cold functions for nonpie.c: cold_0 ... cold_95, 64 KiB each,
// a ret and int3 padding. .text.unlikely.* comes first in the linker's
// .text, so the program's own code lands above 0xa00000.
	.section .text.unlikely.nonpie_pad,"ax",@progbits
	.altmacro
	.macro cold n
	.globl cold_\n
	.type cold_\n, @function
	.p2align 4
cold_\n:
	ret
	.skip 0xffff, 0xcc
	.size cold_\n, 0x10000
	.endm
	i = 0
	.rept 96
	cold %i
	i = i + 1
	.endr
	.section .note.GNU-stack,"",@progbits
