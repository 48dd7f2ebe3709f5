package sampleprof

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The GCC AutoFDO profile (gcov format, version 704, as Google's
// create_gcov writes it and llvm-profdata reads it): little-endian 32-bit
// words. A header ("adcg", "*704", a zero word); the name table (tag
// 0xaa000000, a length word, a count, then strings of a word count followed
// by the NUL-padded bytes); the functions (tag 0xac000000, a length word, a
// count, then each function). A function is a head count (64 bits, as two
// words low first; top-level functions only), a name index, a count of
// positions and one of inlined call sites; each position is an offset
// (line offset << 16 | discriminator), a count of indirect-call targets and
// a 64-bit count, then per target the histogram type 7, a 64-bit name
// index and a 64-bit count; each inlined call site is an offset and a
// function. Whatever follows the functions (module grouping, working set)
// is ignored, as LLVM does.

// GCCMagic starts every GCC AutoFDO profile: the magic and version words.
const GCCMagic = "adcg*704"

const (
	gcovTagNames     = 0xaa000000
	gcovTagFunctions = 0xac000000
	gcovHistICTopN   = 7 // HIST_TYPE_INDIR_CALL_TOPN
)

// ReadGCC reads a GCC AutoFDO profile.
func ReadGCC(data []byte) (*Profile, error) {
	g := &gcovDecoder{data: data, p: NewProfile()}
	if string(g.bytes(8)) != GCCMagic {
		return nil, &FormatError{Err: errors.New("not a GCC AutoFDO profile of version 704 (\"adcg*704\")")}
	}
	g.u32() // the zero word
	g.nameTable()
	g.functions()
	if g.err != nil {
		return nil, g.err
	}
	return g.p, nil
}

// gcovDecoder reads words with a sticky error that carries the offset.
type gcovDecoder struct {
	data  []byte
	off   int
	err   error
	names []string
	p     *Profile
}

func (g *gcovDecoder) failf(at int, format string, args ...any) {
	if g.err == nil {
		g.err = &FormatError{Offset: int64(at), Err: fmt.Errorf(format, args...)}
	}
}

func (g *gcovDecoder) bytes(n int) []byte {
	if g.err != nil {
		return nil
	}
	if n < 0 || n > len(g.data)-g.off {
		g.failf(g.off, "truncated: %d bytes needed, %d left", n, len(g.data)-g.off)
		return nil
	}
	b := g.data[g.off : g.off+n]
	g.off += n
	return b
}

func (g *gcovDecoder) u32() uint32 {
	if b := g.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (g *gcovDecoder) u64() uint64 {
	lo := g.u32()
	return uint64(g.u32())<<32 | uint64(lo)
}

// tag reads a section tag and its length word.
func (g *gcovDecoder) tag(want uint32, what string) {
	at := g.off
	if t := g.u32(); t != want && g.err == nil {
		g.failf(at, "%s section expected (tag %#x), found tag %#x", what, want, t)
	}
	g.u32()
}

func (g *gcovDecoder) nameTable() {
	g.tag(gcovTagNames, "name table")
	n := g.u32()
	for i := uint32(0); i < n && g.err == nil; i++ {
		at := g.off
		words := g.u32()
		if words == 0 && g.err == nil {
			g.failf(at, "empty string in the name table")
		}
		if uint64(words) > uint64(len(g.data)-g.off)/4 {
			g.failf(at, "string of %d words runs past the file", words)
		}
		b := g.bytes(4 * int(words))
		if i := indexByte0(b); i >= 0 {
			b = b[:i]
		}
		g.names = append(g.names, string(b))
	}
}

func indexByte0(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func (g *gcovDecoder) functions() {
	g.tag(gcovTagFunctions, "function")
	n := g.u32()
	for i := uint32(0); i < n && g.err == nil; i++ {
		g.function(nil, true, 0)
	}
}

// name reads a name index.
func (g *gcovDecoder) name(idx uint64, at int) string {
	if idx >= uint64(len(g.names)) {
		g.failf(at, "name index %d outside the name table of %d names", idx, len(g.names))
		return ""
	}
	return g.names[idx]
}

// function reads one function profile: top-level when stack is empty, else
// inlined at offset into stack[0]; update is false for a repeated
// top-level function (an alias: its samples are already counted).
func (g *gcovDecoder) function(stack []*FunctionSamples, update bool, offset uint32) {
	var head uint64
	if len(stack) == 0 {
		head = g.u64()
	}
	at := g.off
	name := g.name(uint64(g.u32()), at)
	positions, callsites := g.u32(), g.u32()
	if g.err != nil {
		return
	}
	var f *FunctionSamples
	if len(stack) == 0 {
		f = g.p.Function(name)
		f.HeadSamples = addSat(f.HeadSamples, head)
		if f.TotalSamples > 0 {
			update = false
		}
	} else {
		f = stack[0].Inlinee(gcovLocation(offset), name)
	}
	chain := append([]*FunctionSamples{f}, stack...)
	for i := uint32(0); i < positions && g.err == nil; i++ {
		g.position(f, chain, update)
	}
	for i := uint32(0); i < callsites && g.err == nil; i++ {
		off := g.u32()
		g.function(chain, update, off)
	}
}

// position reads one line's count and indirect-call targets.
func (g *gcovDecoder) position(f *FunctionSamples, chain []*FunctionSamples, update bool) {
	loc := gcovLocation(g.u32())
	targets := g.u32()
	count := g.u64()
	if g.err != nil {
		return
	}
	if update {
		for _, c := range chain {
			c.TotalSamples = addSat(c.TotalSamples, count)
		}
		r := f.Record(loc)
		r.Samples = addSat(r.Samples, count)
	}
	for j := uint32(0); j < targets && g.err == nil; j++ {
		at := g.off
		if h := g.u32(); h != gcovHistICTopN && g.err == nil {
			g.failf(at, "histogram type %d: only indirect-call targets (7) are read", h)
			return
		}
		at = g.off
		target := g.name(g.u64(), at)
		n := g.u64()
		if update && g.err == nil {
			r := f.Record(loc)
			if r.CallTargets == nil {
				r.CallTargets = map[string]uint64{}
			}
			r.CallTargets[target] = addSat(r.CallTargets[target], n)
		}
	}
}

// gcovLocation splits an offset word: line offset << 16 | discriminator.
func gcovLocation(off uint32) LineLocation {
	return LineLocation{LineOffset: off >> 16, Discriminator: off & 0xffff}
}
