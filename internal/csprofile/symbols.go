package csprofile

import (
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Symbolizer is what context generation asks of the binary's debug info;
// internal/symbolize's *Table implements it.
type Symbolizer interface {
	Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame
	FuncRangeAt(addr uint64) *symbolize.FuncRange
	FuncRangeStartingAt(addr uint64) *symbolize.FuncRange
	SubroutineAt(addr uint64) (start, end uint64, sub int32)
	Span() (start, end uint64)
}

// Symbols caches the inline frames of each address, as llvm-profgen's
// symbolizer cache, and answers the unwinder's questions. Not safe for
// concurrent use.
type Symbols struct {
	sym Symbolizer

	// pages cache the frames of the addresses of [lo, hi), 512 a page;
	// addresses with the same frames share them (shared).
	lo, hi uint64
	pages  []*[pageSize]*addrFrames
	shared map[frameKey]*addrFrames
	ctxIDs map[string]uint32 // inline context (all frames but the leaf's line) -> id
	subCtx map[int32]uint32  // the inline context id of each subroutine
	leaves map[leafSig]uint32
	buf    []symbolize.Frame
	runs   *[runSlots]inlineRun // InlineRun's answers, direct-mapped by address
}

// inlineRun is a segment [start, end) of one subroutine and the id of its
// inline context.
type inlineRun struct {
	start, end uint64
	ctx        uint32
}

// runSlots is the size of the InlineRun cache: the unwinder asks about
// the same segments again and again, and the table behind it is shared
// by the unwinders under a lock.
const runSlots = 1 << 12

// addrFrames are the frames of one address, outermost first, with raw
// discriminators, and the id of its inline context (0: no debug info).
type addrFrames struct {
	frames []sampleprof.ContextFrame
	ctx    uint32
	leaf   uint32 // id of (ctx, leaf function): what a context takes from its leaf address
}

const pageSize = 512

// leafSig is an inline context and the function of its leaf frame.
type leafSig struct {
	ctx uint32
	fn  string
}

// frameKey identifies the frames of an address: its innermost subroutine
// and its line-table line and discriminator.
type frameKey struct {
	sub        int32
	line, disc uint32
}

// noFrames are the frames of addresses without debug info.
var noFrames = &addrFrames{}

// NewSymbols returns a cache over sym.
func NewSymbols(sym Symbolizer) *Symbols {
	s := &Symbols{sym: sym, shared: map[frameKey]*addrFrames{}, ctxIDs: map[string]uint32{}, subCtx: map[int32]uint32{}, leaves: map[leafSig]uint32{}}
	s.lo, s.hi = sym.Span()
	if s.hi > s.lo {
		s.pages = make([]*[pageSize]*addrFrames, (s.hi-s.lo+pageSize-1)/pageSize)
	}
	return s
}

// at returns the frames of addr.
func (s *Symbols) at(addr uint64) *addrFrames {
	if addr < s.lo || addr >= s.hi {
		return noFrames
	}
	i := addr - s.lo
	pg := s.pages[i/pageSize]
	if pg == nil {
		pg = new([pageSize]*addrFrames)
		s.pages[i/pageSize] = pg
	}
	f := pg[i%pageSize]
	if f == nil {
		f = s.symbolize(addr)
		pg[i%pageSize] = f
	}
	return f
}

// symbolize returns the frames of addr, shared with the addresses that
// have the same.
func (s *Symbols) symbolize(addr uint64) *addrFrames {
	s.buf = s.sym.Frames(addr, s.buf)
	if len(s.buf) == 0 {
		return noFrames
	}
	_, _, sub := s.sym.SubroutineAt(addr)
	leaf := s.buf[len(s.buf)-1]
	k := frameKey{sub: sub, line: leaf.Line, disc: leaf.Discriminator}
	if f := s.shared[k]; f != nil {
		return f
	}
	f := &addrFrames{frames: make([]sampleprof.ContextFrame, len(s.buf))}
	s.shared[k] = f
	for i, fr := range s.buf {
		f.frames[i] = sampleprof.ContextFrame{Func: fr.Func,
			Loc: sampleprof.LineLocation{LineOffset: fr.LineOffset(), Discriminator: fr.Discriminator}}
	}
	if len(f.frames) > 0 {
		f.ctx = s.contextID(f.frames)
		sig := leafSig{f.ctx, f.frames[len(f.frames)-1].Func}
		if f.leaf = s.leaves[sig]; f.leaf == 0 {
			f.leaf = uint32(len(s.leaves) + 1)
			s.leaves[sig] = f.leaf
		}
	}
	return f
}

// contextID interns the inline context of frames: the frames but the leaf,
// and their number.
func (s *Symbols) contextID(frames []sampleprof.ContextFrame) uint32 {
	key := make([]byte, 0, 64)
	key = append(key, byte(len(frames)), byte(len(frames)>>8), byte(len(frames)>>16))
	for _, f := range frames[:len(frames)-1] {
		key = append(key, f.Func...)
		key = append(key, 0)
		key = appendLoc(key, f.Loc)
	}
	id, ok := s.ctxIDs[string(key)]
	if !ok {
		id = uint32(len(s.ctxIDs) + 1)
		s.ctxIDs[string(key)] = id
	}
	return id
}

func appendLoc(b []byte, l sampleprof.LineLocation) []byte {
	return append(b, byte(l.LineOffset), byte(l.LineOffset>>8), byte(l.LineOffset>>16), byte(l.LineOffset>>24),
		byte(l.Discriminator), byte(l.Discriminator>>8), byte(l.Discriminator>>16), byte(l.Discriminator>>24))
}

// InlineRun returns the inline context id of addr (0: no debug info) and
// the start of the address segment, owned by one subroutine, holding it:
// the context is the same all along a segment.
func (s *Symbols) InlineRun(addr uint64) (uint64, uint32) {
	if s.runs == nil {
		s.runs = new([runSlots]inlineRun)
	}
	slot := &s.runs[(addr>>2)%runSlots]
	if slot.start <= addr && addr < slot.end {
		return slot.start, slot.ctx
	}
	start, end, sub := s.sym.SubroutineAt(addr)
	if sub < 0 {
		return addr, 0
	}
	id, ok := s.subCtx[sub]
	if !ok {
		id = s.symbolize(addr).ctx
		s.subCtx[sub] = id
	}
	*slot = inlineRun{start, end, id}
	return start, id
}

// IsFuncStart reports whether a DWARF function range starts at addr.
func (s *Symbols) IsFuncStart(addr uint64) bool {
	return s.sym.FuncRangeStartingAt(addr) != nil
}

// Frames returns the frames of addr, outermost first, with raw
// discriminators; empty without debug info. The result must not be
// modified.
func (s *Symbols) Frames(addr uint64) []sampleprof.ContextFrame {
	return s.at(addr).frames
}
