package binary

// PrevInst returns the last instruction starting before addr (addr need
// not be code), in address order over the whole binary, as llvm-profgen
// steps back through its sorted code addresses (InstructionPointer's
// backward, and getCallAddrFromFrameAddr to find the call before a return
// address).
func (f *File) PrevInst(addr uint64) (Inst, bool) {
	if addr == 0 {
		return Inst{}, false
	}
	c := f.code
	for i := c.firstAfter(addr-1) - 1; i >= 0; i-- {
		rc := c.code(i)
		if j := rc.find(addr - c.starts[i]); j > 0 {
			return c.inst(i, rc, j-1), true
		}
	}
	return Inst{}, false
}
