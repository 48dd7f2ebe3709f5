package binary

import (
	"iter"
	"slices"
)

// Scan yields every instruction of the binary with its bytes, in address
// order: what Insts yields over the whole binary. It decodes afresh and
// keeps nothing, so that one pass over all the code (a reverse call graph)
// neither pays for nor holds the per-range lookup tables of Inst and
// Insts. The bytes are valid until the next instruction is yielded. A
// section that cannot be read yields nothing (DecodeErr says why).
func (f *File) Scan() iter.Seq2[Inst, []byte] {
	return func(yield func(Inst, []byte) bool) {
		c := f.code
		var text []byte
		sec := -1
		for i := range c.starts {
			if int(c.secOf[i]) != sec {
				sec = int(c.secOf[i])
				text = c.readSection(sec, text)
			}
			if !c.scanRange(i, text, yield) {
				return
			}
		}
	}
}

// readSection reads section sec of the code into buf's memory, or returns
// nil.
func (c *codeIndex) readSection(sec int, buf []byte) []byte {
	s := c.secs[sec]
	buf = slices.Grow(buf[:0], int(s.Size))[:s.Size]
	if _, err := s.ReadAt(buf, 0); err != nil {
		c.setErr(err)
		return nil
	}
	return buf
}

// scanRange yields the instructions of range i, whose section's bytes are
// text, as decodeRange decodes them; false when yield asked to stop.
func (c *codeIndex) scanRange(i int, text []byte, yield func(Inst, []byte) bool) bool {
	sec := c.secs[c.secOf[i]]
	if text == nil {
		return true
	}
	start, end := c.starts[i], c.ends[i]
	lim := min(end+uint64(c.arch.maxInstLen)-1, c.limits[i])
	buf := text[start-sec.Addr : lim-sec.Addr]
	more := true
	decodeLinear(c.arch.decode, buf, end-start, func(off uint64, p packedInst) {
		if more {
			more = yield(Inst{Addr: start + off, Size: uint32(p.size), Kind: p.kind}, buf[off:off+uint64(p.size)])
		}
	})
	return more
}
