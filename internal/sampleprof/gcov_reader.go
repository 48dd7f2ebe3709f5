package sampleprof

import (
	"encoding/binary"
	"fmt"
)

// ReadGCC reads a GCC AutoFDO profile of any version gcov.go describes, as
// llvm-profdata reads version "*704": a function named twice at top level
// adds its head count but not its body (LLVM counts an alias once); a
// location named twice in one instance adds up; whatever follows the
// functions is not read. Version 3's source files go to SourceFiles; its
// summary is checked for shape and recomputed by whoever needs it; its
// timestamps are skipped.
func ReadGCC(data []byte) (*Profile, error) {
	g := &gcovDecoder{data: data, p: NewProfile()}
	g.header()
	g.summary()
	g.nameTable()
	g.functions()
	if g.err != nil {
		return nil, g.err
	}
	return g.p, nil
}

// gcovDecoder reads words with a sticky error that carries the offset.
type gcovDecoder struct {
	data    []byte
	off     int
	err     error
	version uint32
	names   []string
	files   []string
	p       *Profile
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

// left is how many bytes remain.
func (g *gcovDecoder) left() int { return len(g.data) - g.off }

func (g *gcovDecoder) header() {
	if string(g.bytes(4)) != GCCMagic {
		g.failf(0, "not a GCC AutoFDO profile (no \"adcg\" magic)")
		return
	}
	g.version = g.u32()
	if !gcovKnownVersion(g.version) && g.err == nil {
		g.failf(4, "GCC AutoFDO profile version %#x: profgen reads versions 1, 2, 3 and \"*704\"", g.version)
	}
	g.u32() // the zero word
}

// expectTag reads a section tag.
func (g *gcovDecoder) expectTag(want uint32, what string) {
	at := g.off
	if t := g.u32(); t != want && g.err == nil {
		g.failf(at, "%s section expected (tag %#x), found tag %#x", what, want, t)
	}
}

// summary checks version 3's summary section and skips it.
func (g *gcovDecoder) summary() {
	if g.version != GCCVersion3 {
		return
	}
	g.expectTag(gcovTagSummary, "summary")
	g.bytes(5 * 8)
	at := g.off
	n := g.u64()
	if n > uint64(g.left()/20) && g.err == nil {
		g.failf(at, "summary of %d entries runs past the file", n)
		return
	}
	g.bytes(int(n) * 20)
}

func (g *gcovDecoder) nameTable() {
	g.expectTag(gcovTagNames, "name table")
	g.u32() // the length
	if g.version == GCCVersion3 {
		g.files = g.strings(nil)
	}
	g.names = g.strings(g.fileOf)
}

// strings reads a count and that many strings, calling after (if not nil)
// behind each.
func (g *gcovDecoder) strings(after func(name string)) []string {
	at := g.off
	n := g.u32()
	if uint64(n) > uint64(g.left()/4) && g.err == nil {
		g.failf(at, "%d strings cannot fit in the %d bytes left", n, g.left())
	}
	var out []string
	for i := uint32(0); i < n && g.err == nil; i++ {
		s := g.string()
		out = append(out, s)
		if after != nil {
			after(s)
		}
	}
	return out
}

// string reads one string in the version's encoding, cut at its NUL.
func (g *gcovDecoder) string() string {
	at := g.off
	n := uint64(g.u32())
	if gcovWordStrings(g.version) {
		n *= 4
	}
	if n == 0 && g.err == nil {
		g.failf(at, "empty string (length 0) in the name table")
	}
	if n > uint64(g.left()) && g.err == nil {
		g.failf(at, "string of %d bytes runs past the file", n)
	}
	b := g.bytes(int(n))
	if i := indexByte0(b); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// fileOf reads version 3's source file index of name.
func (g *gcovDecoder) fileOf(name string) {
	if g.version != GCCVersion3 {
		return
	}
	at := g.off
	i := g.u32()
	switch {
	case g.err != nil || i == gcovNoFile:
	case uint64(i) >= uint64(len(g.files)):
		g.failf(at, "file index %d outside the %d source files", i, len(g.files))
	default:
		if g.p.SourceFiles == nil {
			g.p.SourceFiles = map[string]string{}
		}
		g.p.SourceFiles[name] = g.files[i]
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
	g.expectTag(gcovTagFunctions, "function")
	g.u32() // the length
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

// function reads one function instance: top-level when stack is empty,
// else inlined at offset into the last of stack, which holds the
// enclosing instances outermost first; update is false for a repeated
// top-level function (an alias: its samples are already counted).
func (g *gcovDecoder) function(stack []*FunctionSamples, update bool, offset uint32) {
	var head uint64
	if len(stack) == 0 {
		head = g.u64()
		if g.version == GCCVersion3 {
			g.u64() // the timestamp
		}
	}
	at := g.off
	name := g.name(uint64(g.u32()), at)
	positions, callsites := g.u32(), g.u32()
	if len(stack) > maxInlineDepth && g.err == nil {
		g.failf(at, "inlined more than %d deep", maxInlineDepth)
	}
	if g.err != nil {
		return
	}
	f := g.instance(stack, name, head, offset, &update)
	chain := append(stack, f) // siblings reuse the array: stack is theirs alone
	for i := uint32(0); i < positions && g.err == nil; i++ {
		g.position(f, chain, update)
	}
	for i := uint32(0); i < callsites && g.err == nil; i++ {
		off := g.u32()
		g.function(chain, update, off)
	}
}

// instance returns the profile an instance adds to: a top-level function
// (clearing update when it was read before), or an inlinee of the last of
// stack.
func (g *gcovDecoder) instance(stack []*FunctionSamples, name string, head uint64, offset uint32, update *bool) *FunctionSamples {
	if len(stack) > 0 {
		return stack[len(stack)-1].Inlinee(gcovLocation(offset), name)
	}
	f := g.p.Function(name)
	f.HeadSamples = addSat(f.HeadSamples, head)
	if f.TotalSamples > 0 {
		*update = false
	}
	return f
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
		target, n := g.target()
		if update && g.err == nil {
			f.addCallTargetSat(loc, target, n)
		}
	}
}

// target reads one indirect-call target: its name and count.
func (g *gcovDecoder) target() (string, uint64) {
	at := g.off
	if h := g.u32(); h != gcovHistICTopN && g.err == nil {
		g.failf(at, "histogram type %d: only indirect-call targets (7) are read", h)
		return "", 0
	}
	at = g.off
	return g.name(g.u64(), at), g.u64()
}
