package binary

import (
	"cmp"
	"debug/elf"
	"iter"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/profgen/profgen/internal/binary/insn"
)

// Inst is a decoded instruction.
type Inst struct {
	Addr uint64
	Size uint32
	Kind insn.Kind
}

// End is the address just past the instruction.
func (i Inst) End() uint64 { return i.Addr + uint64(i.Size) }

// codeIndex holds llvm-profgen's disassembly ranges (one per distinct symbol
// address in an executable section) and decodes each on first use.
type codeIndex struct {
	arch    arch
	starts  []uint64 // sorted range starts
	buckets bucketIndex
	ends    []uint64 // range ends (exclusive)
	limits  []uint64 // end of the section holding the range: decoding may read up to it
	secs    []*elf.Section
	secOf   []uint32
	decoded []atomic.Pointer[rangeCode]
	// image is the whole file mapped into memory, when Open could map it:
	// code is read from it.
	image []byte

	errMu sync.Mutex
	err   error // first read error
}

// maxRangeSize bounds a range (a symbol with gigabytes of code after it).
const maxRangeSize = 1<<32 - 64

// rangeCode is the decoded content of one range. Offsets are from the
// range start. Lookups are O(1): a bitmap of instruction starts with a rank
// table gives the index of an instruction in insts.
type rangeCode struct {
	insts  []packedInst // valid instructions in address order
	starts []uint64     // bitmap: offsets where a valid instruction starts
	rank   []uint32     // rank[w]: number of instructions before offset 64*w
	uncond []uint64     // bitmap: offsets of instructions whose Kind.IsUncondBranch
}

type packedInst struct {
	off  uint32
	size uint8
	kind insn.Kind
}

func (rc *rangeCode) isStart(off uint64) bool {
	w := off / 64
	return w < uint64(len(rc.starts)) && rc.starts[w]&(1<<(off%64)) != 0
}

// find returns the index of the first instruction at offset >= off.
func (rc *rangeCode) find(off uint64) int {
	w := off / 64
	if w >= uint64(len(rc.starts)) {
		return len(rc.insts)
	}
	below := rc.starts[w] & (1<<(off%64) - 1)
	return int(rc.rank[w]) + bits.OnesCount64(below)
}

// hasUncond reports whether an unconditional branch starts in [lo, hi).
func (rc *rangeCode) hasUncond(lo, hi uint64) bool {
	hi = min(hi, uint64(len(rc.uncond))*64)
	for lo < hi {
		w, b := lo/64, lo%64
		word := rc.uncond[w] >> b
		if n := hi - lo; n < 64-b {
			word &= 1<<n - 1
		}
		if word != 0 {
			return true
		}
		lo += 64 - b
	}
	return false
}

// textSection reports whether llvm-profgen disassembles the section:
// executable, with contents, and not the PLT.
func textSection(s *elf.Section) bool {
	return s.Flags&elf.SHF_EXECINSTR != 0 && s.Type != elf.SHT_NOBITS && s.Size > 0 && s.Name != ".plt" &&
		s.Flags&elf.SHF_COMPRESSED == 0 && s.ReaderAt != nil
}

// newCodeIndex makes the ranges of the text sections that lie within the
// first fileSize bytes of the file (any, if fileSize < 0).
func newCodeIndex(ef *elf.File, a arch, syms []elf.Symbol, fileSize int64) *codeIndex {
	c := &codeIndex{arch: a}
	bySec := map[int][]uint64{}
	for _, s := range syms {
		i := int(s.Section)
		if i <= 0 || i >= len(ef.Sections) || !textSection(ef.Sections[i]) || !inFile(ef.Sections[i], fileSize) {
			continue
		}
		sec := ef.Sections[i]
		if s.Value >= sec.Addr && s.Value-sec.Addr < sec.Size {
			bySec[i] = append(bySec[i], s.Value)
		}
	}
	for i, sec := range ef.Sections {
		addrs := bySec[i]
		if len(addrs) == 0 {
			continue
		}
		slices.Sort(addrs)
		addrs = slices.Compact(addrs)
		c.secs = append(c.secs, sec)
		for j, a := range addrs {
			end := sec.Addr + sec.Size
			if j+1 < len(addrs) {
				end = addrs[j+1]
			}
			end = min(end, a+maxRangeSize) // instruction offsets are 32-bit
			c.add(a, end, sec.Addr+sec.Size, uint32(len(c.secs)-1))
		}
	}
	c.sortRanges()
	c.buckets = newBucketIndex(c.starts)
	c.decoded = make([]atomic.Pointer[rangeCode], len(c.starts))
	return c
}

func inFile(s *elf.Section, fileSize int64) bool {
	end := s.Offset + s.Size
	return end >= s.Offset && (fileSize < 0 || end <= uint64(fileSize)) && s.Addr+s.Size >= s.Addr
}

func (c *codeIndex) add(start, end, limit uint64, sec uint32) {
	c.starts = append(c.starts, start)
	c.ends = append(c.ends, end)
	c.limits = append(c.limits, limit)
	c.secOf = append(c.secOf, sec)
}

// sortRanges orders the ranges by start; sections rarely come out of
// address order, so this is usually a check.
func (c *codeIndex) sortRanges() {
	if slices.IsSorted(c.starts) {
		return
	}
	idx := make([]int, len(c.starts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(c.starts[a], c.starts[b]) })
	c.starts, c.ends, c.limits, c.secOf = permute(c.starts, idx), permute(c.ends, idx), permute(c.limits, idx), permute(c.secOf, idx)
}

func permute[T any](s []T, idx []int) []T {
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// rangeAt returns the index of the range holding addr, or -1.
func (c *codeIndex) rangeAt(addr uint64) int {
	i := c.firstAfter(addr) - 1
	if i < 0 || addr >= c.ends[i] {
		return -1
	}
	return i
}

// firstAfter returns the index of the first range starting after addr.
func (c *codeIndex) firstAfter(addr uint64) int {
	if i, ok := c.buckets.firstAfter(c.starts, addr); ok {
		return i
	}
	lo, hi := 0, len(c.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.starts[m] <= addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// code returns the decoded range i, decoding it on first use. Concurrent
// first uses may both decode; one result wins.
func (c *codeIndex) code(i int) *rangeCode {
	if rc := c.decoded[i].Load(); rc != nil {
		return rc
	}
	rc := c.decode(i)
	if !c.decoded[i].CompareAndSwap(nil, rc) {
		return c.decoded[i].Load()
	}
	return rc
}

func (c *codeIndex) decode(i int) *rangeCode {
	start, end := c.starts[i], c.ends[i]
	sec := c.secs[c.secOf[i]]
	n := min(end+uint64(c.arch.maxInstLen)-1, c.limits[i]) - start
	s := scratchPool.Get().(*scratch)
	defer s.release()
	code, err := c.sectionBytes(sec, start-sec.Addr, n, &s.buf)
	if err != nil {
		c.setErr(err)
		return &rangeCode{}
	}
	return decodeRange(c.arch.decode, code, end-start, s)
}

// scratch holds the buffers of one decoding, reused across decodings.
type scratch struct {
	buf   []byte
	insts []packedInst
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (s *scratch) release() {
	if cap(s.buf) <= 1<<20 && cap(s.insts) <= 1<<18 {
		scratchPool.Put(s)
	}
}

// decodeRange disassembles buf linearly from its start while the offset is
// below size, as llvm-profgen's dissassembleSymbol does.
func decodeRange(decode insn.Decoder, buf []byte, size uint64, s *scratch) *rangeCode {
	words := (size + 63) / 64
	bitmaps := make([]uint64, 2*words)
	rc := &rangeCode{starts: bitmaps[:words:words], uncond: bitmaps[words:], rank: make([]uint32, words)}
	insts := s.insts[:0]
	decodeLinear(decode, buf, size, func(off uint64, p packedInst) {
		insts = append(insts, p)
		rc.starts[off/64] |= 1 << (off % 64)
		if p.kind.IsUncondBranch() {
			rc.uncond[off/64] |= 1 << (off % 64)
		}
	})
	rc.insts = slices.Clone(insts)
	s.insts = insts
	var count uint32
	for w, word := range rc.starts {
		rc.rank[w] = count
		count += uint32(bits.OnesCount64(word))
	}
	return rc
}

// decodeLinear disassembles buf linearly from its start while the offset
// is below size and calls visit with each valid instruction.
func decodeLinear(decode insn.Decoder, buf []byte, size uint64, visit func(off uint64, p packedInst)) {
	for off := uint64(0); off < size; {
		n, kind, ok := decode(buf[off:])
		if ok {
			visit(off, packedInst{off: uint32(off), size: uint8(n), kind: kind})
		}
		off += uint64(n)
	}
}

func (c *codeIndex) inst(i int, rc *rangeCode, j int) Inst {
	p := rc.insts[j]
	return Inst{Addr: c.starts[i] + uint64(p.off), Size: uint32(p.size), Kind: p.kind}
}

// IsCode reports whether addr starts an instruction in llvm-profgen's
// disassembly of the binary (ProfiledBinary::addressIsCode).
func (f *File) IsCode(addr uint64) bool {
	c := f.code
	i := c.rangeAt(addr)
	return i >= 0 && c.code(i).isStart(addr-c.starts[i])
}

// Inst returns the instruction starting at addr.
func (f *File) Inst(addr uint64) (Inst, bool) {
	c := f.code
	i := c.rangeAt(addr)
	if i < 0 {
		return Inst{}, false
	}
	rc := c.code(i)
	off := addr - c.starts[i]
	if !rc.isStart(off) {
		return Inst{}, false
	}
	return c.inst(i, rc, rc.find(off)), true
}

// NextInst returns the address of the first instruction starting after
// addr (addr need not be code), in address order over the whole binary, as
// llvm-profgen steps through its sorted code addresses.
func (f *File) NextInst(addr uint64) (uint64, bool) {
	if addr == ^uint64(0) {
		return 0, false
	}
	in, ok := f.firstInstFrom(addr + 1)
	return in.Addr, ok
}

// firstInstFrom returns the first instruction at an address >= addr.
func (f *File) firstInstFrom(addr uint64) (Inst, bool) {
	c := f.code
	i := c.firstAfter(addr) - 1
	if i < 0 || addr >= c.ends[i] {
		i++
	}
	for ; i < len(c.starts); i++ {
		rc := c.code(i)
		var off uint64
		if addr > c.starts[i] {
			off = addr - c.starts[i]
		}
		if j := rc.find(off); j < len(rc.insts) {
			return c.inst(i, rc, j), true
		}
	}
	return Inst{}, false
}

// Insts yields the instructions starting in [first, last], in address
// order (last inclusive, as in the inclusive ranges of LBR aggregation).
func (f *File) Insts(first, last uint64) iter.Seq[Inst] {
	return func(yield func(Inst) bool) {
		c := f.code
		in, ok := f.firstInstFrom(first)
		if !ok || in.Addr > last {
			return
		}
		for i := c.firstAfter(in.Addr) - 1; i < len(c.starts) && c.starts[i] <= last; i++ {
			rc := c.code(i)
			var off uint64
			if first > c.starts[i] {
				off = first - c.starts[i]
			}
			for j := rc.find(off); j < len(rc.insts); j++ {
				in := c.inst(i, rc, j)
				if in.Addr > last || !yield(in) {
					return
				}
			}
		}
	}
}

// CrossesUncondBranch reports whether an instruction that llvm-profgen
// counts as an unconditional branch (a call, a return or a direct jump; see
// Kind.IsUncondBranch) starts in [start, end) (rangeCrossUncondBranch).
// It is false when start >= end.
func (f *File) CrossesUncondBranch(start, end uint64) bool {
	if start >= end {
		return false
	}
	c := f.code
	i := c.firstAfter(start) - 1
	if i < 0 || start >= c.ends[i] {
		i++
	}
	for ; i < len(c.starts) && c.starts[i] < end; i++ {
		if c.rangeHasUncond(i, start, end) {
			return true
		}
	}
	return false
}

func (c *codeIndex) rangeHasUncond(i int, start, end uint64) bool {
	base := c.starts[i]
	lo := uint64(0)
	if start > base {
		lo = start - base
	}
	return c.code(i).hasUncond(lo, end-base)
}

// DecodeErr is the first error met while reading code for decoding; the
// range read is then treated as holding no code.
func (f *File) DecodeErr() error {
	c := f.code
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

func (c *codeIndex) setErr(err error) {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	if c.err == nil {
		c.err = err
	}
}
