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
		var buf []byte
		for sec, s := range c.secs {
			if text := c.readSection(sec, &buf); text != nil && !yield(s.Addr, text) {
				return
			}
		}
	}
}

// readSection returns the bytes of section sec of the code (read into
// *buf if the file is not mapped), or nil.
func (c *codeIndex) readSection(sec int, buf *[]byte) []byte {
	s := c.secs[sec]
	code, err := c.sectionBytes(s, 0, s.Size, buf)
	if err != nil {
		c.setErr(err)
		return nil
	}
	return code
}

// Decode yields the instructions starting in [first, end), each with its
// bytes, in address order: what Insts(first, end-1) yields. It decodes
// afresh and keeps nothing, for a caller that keeps its own decoding of a
// function and would otherwise pay for the lookup tables Inst and Insts
// build and hold. The bytes are valid until the next instruction is
// yielded.
func (f *File) Decode(first, end uint64) iter.Seq2[Inst, []byte] {
	return func(yield func(Inst, []byte) bool) {
		c := f.code
		i := c.firstAfter(first) - 1
		if i < 0 || first >= c.ends[i] {
			i++
		}
		s := scratchPool.Get().(*scratch)
		defer s.release()
		for ; i < len(c.starts) && c.starts[i] < end; i++ {
			if !c.decodeFresh(i, first, end, s, yield) {
				return
			}
		}
	}
}

// decodeFresh decodes range i, up to end, into s's buffer and yields its
// instructions starting in [first, end); false when yield asked to stop.
func (c *codeIndex) decodeFresh(i int, first, end uint64, s *scratch, yield func(Inst, []byte) bool) bool {
	start, sec := c.starts[i], c.secs[c.secOf[i]]
	stop := min(c.ends[i], end)
	n := min(stop+uint64(c.arch.maxInstLen)-1, c.limits[i]) - start
	code, err := c.sectionBytes(sec, start-sec.Addr, n, &s.buf)
	if err != nil {
		c.setErr(err)
		return true
	}
	for off := uint64(0); start+off < stop; {
		size, kind, ok := c.arch.decode(code[off:])
		if addr := start + off; ok && addr >= first && !yield(Inst{Addr: addr, Size: uint32(size), Kind: kind}, code[off:off+uint64(size)]) {
			return false
		}
		off += uint64(size)
	}
	return true
}
