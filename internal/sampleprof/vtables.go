package sampleprof

import (
	"bufio"
	"errors"
	"sort"
	"strconv"
	"strings"
)

// Vtable type profiles (LLVM 22, SampleProf.h's TypeCountMap): at a
// location of a function, how often each vtable was the type of the object
// a virtual call there went through. In text, a line
// "loc: vtables _ZTVA:n _ZTVB:m " after the body record of loc (a load
// profiled in the function itself) or after the inlinees of loc (a call
// inlined there); both go into the function's one map by location. In
// extbinary they follow each function's inlinees, only when the writer is
// asked to (llvm-profdata-22 merge --extbinary-write-vtable-type-prof; the
// profile summary section then carries secFlagHasVTableTypeProf); the
// binary format has no room for them.

// TypeCounts counts each vtable by name.
type TypeCounts map[string]uint64

// VTableCounts returns the type counts at loc, creating them.
func (f *FunctionSamples) VTableCounts(loc LineLocation) TypeCounts {
	if f.VTables == nil {
		f.VTables = map[LineLocation]TypeCounts{}
	}
	m := f.VTables[loc]
	if m == nil {
		m = TypeCounts{}
		f.VTables[loc] = m
	}
	return m
}

// vtablesPrefix starts the text of a type-count line after "loc: ".
const vtablesPrefix = "vtables "

var errVTablesLine = errors.New("expected 'vtables [mangled_vtable:NUM]+'")

// parseVTables reads the "name:count" pairs after "vtables " as LLVM 22's
// text reader: a name ends at its first ':' (it may hold spaces, not
// colons), its count at the next space; a name twice on one line is an
// error; counts add to those of earlier lines.
func (t *textReader) parseVTables(loc LineLocation, s string) error {
	seen := map[string]bool{}
	pairs := TypeCounts{}
	for s = strings.TrimLeft(s, " "); s != ""; s = strings.TrimLeft(s, " ") {
		colon := strings.IndexByte(s, ':')
		if colon < 0 {
			return errVTablesLine
		}
		name, rest := s[:colon], s[colon+1:]
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		n, ok := parseUint(rest[:end], 64)
		if !ok || seen[name] {
			return errVTablesLine
		}
		seen[name] = true
		pairs[t.intern(name)] = n
		s = rest[end:]
	}
	m := t.stack[len(t.stack)-1].VTableCounts(loc)
	for name, n := range pairs {
		m[name] = addSat(m[name], n)
	}
	return nil
}

// Sorted returns the vtables of m by name, as llvm-profdata show lists them.
func (m TypeCounts) Sorted() []CallTarget { return m.sortedTypes(nameLess(false)) }

// sortedTypes returns the vtables of m in the name table's order.
func (m TypeCounts) sortedTypes(less func(a, b string) bool) []CallTarget {
	out := make([]CallTarget, 0, len(m))
	for name, n := range m {
		out = append(out, CallTarget{name, n})
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i].Name, out[j].Name) })
	return out
}

// writeVTables writes the text line of loc's type counts, if any, as
// LLVM 22 does: each pair followed by a space.
func (tw textWriter) writeVTables(f *FunctionSamples, loc LineLocation, indent int) {
	m := f.VTables[loc]
	if len(m) == 0 {
		return
	}
	w := tw.w
	writeIndent(w, indent)
	writeLocation(w, loc)
	w.WriteString(": " + vtablesPrefix)
	writeTypePairs(w, m.sortedTypes(tw.less))
	w.WriteByte('\n')
}

// writeTypePairs writes "name:count " for each pair.
func writeTypePairs(w *bufio.Writer, pairs []CallTarget) {
	for _, p := range pairs {
		w.WriteString(p.Name)
		w.WriteByte(':')
		w.WriteString(strconv.FormatUint(p.Count, 10))
		w.WriteByte(' ')
	}
}

// mergeVTables adds src's type counts, multiplied by weight, into f's.
func (f *FunctionSamples) mergeVTables(src *FunctionSamples, weight uint64, over *bool) {
	for loc, m := range src.VTables {
		dm := f.VTableCounts(loc)
		for name, n := range m {
			dm[name] = mulAddOver(n, weight, dm[name], over)
		}
	}
}

// collectVTables adds the vtable names of f (not of its inlinees) to t.
func (t *nameTable) collectVTables(f *FunctionSamples) {
	for _, m := range f.VTables {
		for name := range m {
			t.index[name] = 0
		}
	}
}

// vtables writes f's type counts: the number of locations, then for each
// in location order its vtables in name-table order.
func (e *encoder) vtables(f *FunctionSamples, t *nameTable) {
	e.uleb(uint64(len(f.VTables)))
	for _, loc := range SortedLocations(f.VTables) {
		m := f.VTables[loc]
		e.location(loc)
		e.uleb(uint64(len(m)))
		for _, p := range m.sortedTypes(t.less) {
			e.uleb(t.index[p.Name])
			e.uleb(p.Count)
		}
	}
}

// readVTables reads what encoder.vtables writes into f.
func (d *profileDecoder) readVTables(f *FunctionSamples) {
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		loc := d.location()
		m := f.VTableCounts(loc)
		types := d.count()
		for j := 0; j < types && d.err == nil; j++ {
			name, count := d.name(), d.uleb()
			if d.err == nil {
				m[name] = addSat(m[name], count)
			}
		}
	}
}
