package binary

import "iter"

// CodeSections yields the address and bytes of each section holding code
// that Inst and Insts decode, in section header order, for passes over all the
// code that need not decode it (a search for the bytes of direct calls).
// The bytes are valid until the next section is yielded. A section that
// cannot be read is skipped (DecodeErr says why).
func (f *File) CodeSections() iter.Seq2[uint64, []byte] {
	return func(yield func(uint64, []byte) bool) {
		c := f.code
		var text []byte
		for sec, s := range c.secs {
			if text = c.readSection(sec, text); text != nil && !yield(s.Addr, text) {
				return
			}
		}
	}
}

// readSection reads section sec of the code into buf's memory, or returns
// nil.
func (c *codeIndex) readSection(sec int, buf []byte) []byte {
	s := c.secs[sec]
	if uint64(cap(buf)) < s.Size {
		buf = make([]byte, s.Size)
	}
	buf = buf[:s.Size]
	if _, err := s.ReadAt(buf, 0); err != nil {
		c.setErr(err)
		return nil
	}
	return buf
}
