package boltprof

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/profgen/profgen/internal/binary"
)

// Pre-aggregated records (perf2bolt --pa): a taken branch with its
// mispredictions, `B from to count mispreds`, and a fall-through whose
// origin decides how BOLT walks it: `F` after a branch of the same
// function, `r` after a return from elsewhere, `f` after any other branch
// from elsewhere. (`T` records would carry both in one line, but no
// mispredictions.) Locations are `<build id>:<address>`, `X:<address>`
// outside every function; BOLT reads the number as the binary's address.

// preaggKey is one pre-aggregated record without its counts.
type preaggKey struct {
	kind     byte // 'B', 'F', 'f' or 'r'
	from, to uint64
}

// WritePreagg writes traces as pre-aggregated records that perf2bolt --pa
// turns into the fdata BuildFdata makes of them. Records that would add
// nothing (both ends outside every function; fall-throughs leaving their
// function) are left out.
func WritePreagg(w io.Writer, code *binary.File, funcs Funcs, traces Traces) error {
	b := &builder{code: code, funcs: funcs}
	buildID := code.BuildIDHex()
	counts := map[preaggKey]TraceCount{}
	for t, c := range traces {
		if funcs.Containing(t.Branch) != nil || funcs.Containing(t.From) != nil {
			addCount(counts, preaggKey{'B', t.Branch, t.From}, *c)
		}
		if kind, ok := b.fallThroughKind(t); ok {
			addCount(counts, preaggKey{kind, t.From, t.To}, TraceCount{Taken: c.Taken})
		}
	}
	return writePreaggRecords(w, funcs, buildID, counts)
}

func addCount(m map[preaggKey]TraceCount, k preaggKey, c TraceCount) {
	m[k] = m[k].plus(c)
}

// fallThroughKind is the record kind of a trace's fall-through, false
// when it has none inside one function.
func (b *builder) fallThroughKind(t Trace) (byte, bool) {
	if t.To == BranchOnly {
		return 0, false
	}
	f := b.funcs.Containing(t.From)
	if f == nil || b.funcs.Containing(t.To) != f {
		return 0, false
	}
	switch {
	case t.Branch >= f.Addr && t.Branch < f.Addr+f.Size:
		return 'F', true
	case b.isReturn(t.Branch):
		return 'r', true
	}
	return 'f', true
}

func writePreaggRecords(w io.Writer, funcs Funcs, buildID string, counts map[preaggKey]TraceCount) error {
	keys := make([]preaggKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b preaggKey) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	bw := bufio.NewWriter(w)
	loc := func(addr uint64) string {
		if funcs.Containing(addr) == nil {
			return fmt.Sprintf("X:%x", addr)
		}
		return fmt.Sprintf("%s:%x", buildID, addr)
	}
	for _, k := range keys {
		c := counts[k]
		fmt.Fprintf(bw, "%c %s %s %d", k.kind, loc(k.from), loc(k.to), c.Taken)
		if k.kind == 'B' {
			fmt.Fprintf(bw, " %d", c.Mispred)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
