package boltprof

import (
	"testing"

	"github.com/profgen/profgen/internal/binary/x86"
)

// Instructions of the sequences below (x86-64 bytes).
var (
	leaRCX      = []byte{0x48, 0x8d, 0x0d, 0x00, 0x01, 0x00, 0x00}       // lea 0x100(%rip),%rcx
	leaR9       = []byte{0x4c, 0x8d, 0x0d, 0x00, 0x01, 0x00, 0x00}       // lea 0x100(%rip),%r9
	loadR9      = []byte{0x4c, 0x63, 0x0c, 0xb1}                         // movslq (%rcx,%rsi,4),%r9
	loadRCX     = []byte{0x49, 0x63, 0x0c, 0xb1}                         // movslq (%r9,%rsi,4),%rcx
	addRCXToR9  = []byte{0x49, 0x01, 0xc9}                               // add %rcx,%r9
	addR9ToRCX  = []byte{0x4c, 0x01, 0xc9}                               // add %r9,%rcx
	addR9ToR9   = []byte{0x4d, 0x01, 0xc9}                               // add %r9,%r9
	jmpR9       = []byte{0x41, 0xff, 0xe1}                               // jmp *%r9
	jmpRCX      = []byte{0xff, 0xe1}                                     // jmp *%rcx
	jmpRAX      = []byte{0xff, 0xe0}                                     // jmp *%rax
	jmpTable    = []byte{0xff, 0x24, 0xc5, 0x70, 0x20, 0x40, 0x00}       // jmp *0x402070(,%rax,8)
	loadTable   = []byte{0x48, 0x8b, 0x04, 0xc5, 0x70, 0x20, 0x40, 0x00} // mov 0x402070(,%rax,8),%rax
	movEDXToESI = []byte{0x89, 0xd6}                                     // mov %edx,%esi
	movEDXToECX = []byte{0x89, 0xd1}                                     // mov %edx,%ecx
	movEDXToEAX = []byte{0x89, 0xd0}                                     // mov %edx,%eax
	cltq        = []byte{0x48, 0x98}
	call        = []byte{0xe8, 0, 0, 0, 0}
)

// TestTableOfJump walks back from the last instruction of each sequence
// (laid out from address 0x1000) for the table it reads.
func TestTableOfJump(t *testing.T) {
	for _, tc := range []struct {
		name  string
		insts [][]byte
		want  tableRef // addr 0: no table
	}{
		{"PIC, lea next to the jump", [][]byte{leaRCX, loadR9, addRCXToR9, jmpR9}, tableRef{0x1107, true}},
		{"PIC, lea hoisted above other writes and a call",
			[][]byte{leaRCX, cltq, call, movEDXToESI, loadR9, movEDXToESI, addRCXToR9, jmpR9}, tableRef{0x1107, true}},
		{"PIC, the table register in the other role", [][]byte{leaR9, loadRCX, addR9ToRCX, jmpRCX}, tableRef{0x1107, true}},
		{"PIC, the table register written after the lea", [][]byte{leaRCX, movEDXToECX, loadR9, addRCXToR9, jmpR9}, tableRef{}},
		{"PIC, no lea before", [][]byte{loadR9, addRCXToR9, jmpR9}, tableRef{}},
		{"add of a register to itself", [][]byte{leaR9, addR9ToR9, jmpR9}, tableRef{}},
		{"absolute, jmp *table(,%rax,8)", [][]byte{cltq, jmpTable}, tableRef{0x402070, false}},
		{"absolute, loaded into the jump's register", [][]byte{loadTable, movEDXToESI, jmpRAX}, tableRef{0x402070, false}},
		{"register from a move", [][]byte{loadTable, movEDXToEAX, jmpRAX}, tableRef{}},
		{"register never written", [][]byte{movEDXToESI, jmpRAX}, tableRef{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var flows []x86.Flow
			addr := uint64(0x1000)
			for _, b := range tc.insts {
				addr += uint64(len(b))
				flows = append(flows, x86.FlowOf(b, addr))
			}
			got, ok := tableOfJump(flows, len(flows)-1)
			if ok != (tc.want.addr != 0) || got != tc.want {
				t.Errorf("tableOfJump = %+v, %v; want %+v", got, ok, tc.want)
			}
		})
	}
}
