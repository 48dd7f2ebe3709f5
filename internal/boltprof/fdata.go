package boltprof

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
)

// Loc is a location of an fdata record: an offset in a named function, or
// (Name "") somewhere outside every function, written `0 [unknown] 0`.
type Loc struct {
	Name string
	Off  uint64
}

// Edge is the key of a branch record.
type Edge struct{ From, To Loc }

// EdgeCount is a branch record's counts.
type EdgeCount struct{ Mispred, Branches uint64 }

// Fdata is the branch profile perf2bolt writes: taken branches, calls and
// returns into the binary, and the fall-throughs derived from traces.
type Fdata struct {
	Edges map[Edge]EdgeCount
	// Invalid and OutOfRange count traces as perf2bolt's diagnostics do:
	// traces that do not follow the CFG, traces with an end outside every
	// function.
	Invalid, OutOfRange uint64
}

// builder holds what turning traces into records needs.
type builder struct {
	code   *binary.File
	funcs  Funcs
	blocks map[*Func]*blocks
	out    *Fdata
}

// BuildFdata turns traces into fdata records as perf2bolt's
// processBranchEvents does: a trace's branch is a record unless it is a
// return; its fall-through, walked along the function's blocks, gives a
// record per block boundary crossed.
func BuildFdata(code *binary.File, funcs Funcs, traces Traces) *Fdata {
	b := &builder{code: code, funcs: funcs, blocks: map[*Func]*blocks{}, out: &Fdata{Edges: map[Edge]EdgeCount{}}}
	for t, c := range traces {
		ret := b.isReturn(t.Branch)
		if !ret {
			b.branch(t.Branch, t.From, *c)
		}
		if t.To != BranchOnly {
			b.trace(t, c.Taken, ret)
		}
	}
	return b.out
}

// isReturn reports whether a return instruction of a function is at addr.
func (b *builder) isReturn(addr uint64) bool {
	if b.funcs.Containing(addr) == nil {
		return false
	}
	in, ok := b.code.Inst(addr)
	return ok && in.Kind == insn.Return
}

// branch records a taken branch (doBranch): inside one function, or from
// and to locations of which at least one is in a function.
func (b *builder) branch(from, to uint64, c TraceCount) {
	ff, tf := b.funcs.Containing(from), b.funcs.Containing(to)
	if ff == nil && tf == nil {
		return
	}
	e := Edge{b.loc(ff, from), b.loc(tf, to)}
	b.add(e, c.Taken, c.Mispred)
}

func (b *builder) loc(f *Func, addr uint64) Loc {
	if f == nil {
		return Loc{}
	}
	return Loc{f.Name, addr - f.Addr}
}

func (b *builder) add(e Edge, n, mispred uint64) {
	c := b.out.Edges[e]
	c.Branches += n
	c.Mispred += mispred
	b.out.Edges[e] = c
}

// trace records the fall-throughs of a trace (doTrace).
func (b *builder) trace(t Trace, n uint64, ret bool) {
	f := b.funcs.Containing(t.From)
	if f == nil || b.funcs.Containing(t.To) == nil {
		b.out.OutOfRange += n
		return
	}
	if b.funcs.Containing(t.To) != f {
		b.out.Invalid += n
		return
	}
	if f.Pseudo {
		return
	}
	fts, ok := b.fallThroughs(f, t, ret)
	if !ok {
		b.out.Invalid += n
		return
	}
	for _, ft := range fts {
		b.add(Edge{Loc{f.Name, ft[0]}, Loc{f.Name, ft[1]}}, n, 0)
	}
}

// fallThroughs walks a trace's blocks (getFallthroughsInTrace): one
// (last instruction, next block) pair per boundary crossed; false when a
// boundary is not a CFG edge.
func (b *builder) fallThroughs(f *Func, t Trace, ret bool) ([][2]uint64, bool) {
	bl := b.blocksOf(f)
	from, to := t.From-f.Addr, t.To-f.Addr
	if bl == nil || from > to {
		return nil, false
	}
	first, last := bl.containing(from, f.Size), bl.containing(to, f.Size)
	if first < 0 || last < 0 {
		return nil, false
	}
	if b.returnLanding(f, bl, t, first, ret) {
		first--
	}
	var fts [][2]uint64
	for i := first; i < last; i++ {
		if !bl.toNext[i] {
			return nil, false
		}
		fts = append(fts, [2]uint64{bl.last[i], bl.start[i+1]})
	}
	return fts, true
}

// returnLanding reports a trace entering its function from elsewhere at
// the start of a block that follows a call (the return from it): the
// fall-through from the call's block is counted too.
func (b *builder) returnLanding(f *Func, bl *blocks, t Trace, first int, ret bool) bool {
	inside := t.Branch >= f.Addr && t.Branch < f.Addr+f.Size
	from := t.From - f.Addr
	if inside || from != bl.start[first] || first == 0 {
		return false
	}
	return bl.toNext[first-1] && bl.endsInCall[first-1]
}

func (b *builder) blocksOf(f *Func) *blocks {
	bl, ok := b.blocks[f]
	if !ok {
		bl = blocksOf(b.code, f)
		b.blocks[f] = bl
	}
	return bl
}

// WriteTo writes the records as perf2bolt does: `isSym name off isSym
// name off mispreds count`, hex offsets; grouped by the function that
// owns them (the source's, else the target's), sorted inside.
func (fd *Fdata) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	for _, e := range fd.sortedEdges() {
		c := fd.Edges[e]
		k, _ := fmt.Fprintf(bw, "%s %s %d %d\n", locText(e.From), locText(e.To), c.Mispred, c.Branches)
		n += int64(k)
	}
	return n, bw.Flush()
}

func (fd *Fdata) sortedEdges() []Edge {
	es := make([]Edge, 0, len(fd.Edges))
	for e := range fd.Edges {
		es = append(es, e)
	}
	owner := func(e Edge) string { return cmp.Or(e.From.Name, e.To.Name) }
	entry := func(e Edge) int { return b2i(e.From.Name == "") }
	slices.SortFunc(es, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(owner(a), owner(b)), cmp.Compare(entry(a), entry(b)), compareLoc(a.From, b.From), compareLoc(a.To, b.To))
	})
	return es
}

// compareLoc orders locations: outside every function first, then by
// name and offset.
func compareLoc(a, b Loc) int {
	return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Off, b.Off))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// locText is `1 name off`, or `0 [unknown] 0` outside every function.
func locText(l Loc) string {
	if l.Name == "" {
		return "0 [unknown] 0"
	}
	return fmt.Sprintf("1 %s %x", escapeName(l.Name), l.Off)
}

// escapeName escapes spaces and backslashes with a backslash, as BOLT's
// getEscapedName.
func escapeName(s string) string {
	if !strings.ContainsAny(s, " \\") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, " ", `\ `).Replace(s)
}
