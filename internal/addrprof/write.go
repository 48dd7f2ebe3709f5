package addrprof

import (
	"bufio"
	"cmp"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/profgen/profgen/internal/aggregate"
)

// Write writes p, in canonical order, as an address profile.
func Write(w io.Writer, p *Profile) error {
	p = Canonical(p)
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(Header + "\n")
	c := p.Counts
	for i, b := range p.Binaries {
		writeBinary(bw, b, c.Stats.PerBinary[i])
	}
	for _, o := range c.Objects {
		writeObject(bw, o)
	}
	for _, ev := range slices.Sorted(maps.Keys(c.Events)) {
		bw.WriteString("event " + strconv.FormatUint(c.Events[ev], 10) + " " + strconv.Quote(ev) + "\n")
	}
	bw.WriteString("time " + strconv.FormatUint(c.FirstNS, 10) + " " + strconv.FormatUint(c.LastNS, 10) + "\n")
	for _, st := range statFields(&c.Stats) {
		bw.WriteString("stat " + st.name + " " + strconv.FormatUint(*st.n, 10) + "\n")
	}
	writeStacks(bw, c.Stacks)
	writeSymbols(bw, c.Symbols)
	return bw.Flush()
}

// writeBinary writes `binary <build id or -> <leaf samples> "<path>"`.
func writeBinary(bw *bufio.Writer, b Binary, leaves uint64) {
	bw.WriteString("binary " + cmp.Or(b.BuildID, "-") + " " + strconv.FormatUint(leaves, 10) + " " + strconv.Quote(b.Path) + "\n")
}

// writeObject writes `object <kind> <binary or -> <first ns> <first
// sample> <first frame> "<path>"`.
func writeObject(bw *bufio.Writer, o aggregate.Object) {
	kind, bin := "dso", "-"
	switch {
	case o.Kernel:
		kind = "kernel"
	case o.Binary >= 0:
		kind, bin = "binary", strconv.Itoa(o.Binary)
	}
	bw.WriteString("object " + kind + " " + bin + " " + strconv.FormatUint(o.First.NS, 10) + " " +
		strconv.FormatUint(o.First.Sample, 10) + " " + strconv.Itoa(o.First.Frame) + " " + strconv.Quote(o.Path) + "\n")
}

// statField names a drop statistic of the file.
type statField struct {
	name string
	n    *uint64
}

// statFields lists s's counts by their names in the file (PerBinary is on
// the binary lines).
func statFields(s *aggregate.StackStats) []statField {
	return []statField{{"samples", &s.Samples}, {"used", &s.Used}, {"no-binary", &s.NoBinary},
		{"no-mapping", &s.NoMapping}, {"filtered", &s.Filtered}, {"unplaced", &s.Unplaced},
		{"leaf-in-binaries", &s.LeafInBins}}
}

// writeStacks writes `stack <count> <period> <obj>:<hex addr>...`, leaf
// first.
func writeStacks(bw *bufio.Writer, stacks []*aggregate.Stack) {
	var line []byte
	for _, s := range stacks {
		line = append(line[:0], "stack "...)
		line = strconv.AppendUint(line, s.Count, 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, s.Period, 10)
		for _, l := range s.Locs {
			line = appendLoc(append(line, ' '), l)
		}
		bw.Write(append(line, '\n'))
	}
}

func appendLoc(b []byte, l aggregate.Loc) []byte {
	b = strconv.AppendInt(b, int64(l.Obj), 10)
	b = append(b, ':')
	return strconv.AppendUint(b, l.Addr, 16)
}

// writeSymbols writes `symbol <obj>:<hex addr> "<name>"`, by location.
func writeSymbols(bw *bufio.Writer, syms map[aggregate.Loc]string) {
	locs := slices.SortedFunc(maps.Keys(syms), compareLocs)
	var line []byte
	for _, l := range locs {
		line = appendLoc(append(line[:0], "symbol "...), l)
		line = strconv.AppendQuote(append(line, ' '), syms[l])
		bw.Write(append(line, '\n'))
	}
}

func compareLocs(a, b aggregate.Loc) int {
	return cmp.Or(cmp.Compare(a.Obj, b.Obj), cmp.Compare(a.Addr, b.Addr))
}
