// Package rawprof writes and reads llvm-profgen's unsymbolized profile, the
// output of `llvm-profgen --skip-symbolization` and the input of
// `llvm-profgen --unsymbolized-profile`. Context-insensitive form:
//
//	<number of ranges>
//	<start>-<end>:<count>      (hex offsets from the preferred base, sorted)
//	<number of branches>
//	<source>-><target>:<count>
//
// Context-sensitive form (CSSPGO): the same blocks, indented by two
// spaces, under each calling context, contexts sorted by their text:
//
//	[main:3 @ foo]
//	  <number of ranges>
//	  ...
//
// In: aggregate.Counters in canonical addresses (one per context, named by
// its text) and the binary's preferred base. Out: the text, byte-identical
// to llvm-profgen 19. The readers do the reverse, summing repeated blocks
// and contexts as llvm-profgen does.
package rawprof

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
)

// Write writes c with addresses as offsets from base (llvm-profgen's
// --use-offset, its default). Counters are sorted by canonical address, so
// ExternalAddr comes first and prints as its wrapped offset.
func Write(w io.Writer, c *aggregate.Counters, base uint64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	writeCounters(bw, c, base, "")
	return bw.Flush()
}

// writeCounters writes the range and branch blocks of c, each line after
// indent.
func writeCounters(bw *bufio.Writer, c *aggregate.Counters, base uint64, indent string) {
	var line []byte
	ranges := slices.SortedFunc(maps.Keys(c.Ranges), func(a, b aggregate.Range) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	bw.WriteString(indent + strconv.Itoa(len(ranges)) + "\n")
	for _, r := range ranges {
		line = appendCounter(append(line[:0], indent...), r.Start-base, "-", r.End-base, c.Ranges[r])
		bw.Write(line)
	}
	branches := slices.SortedFunc(maps.Keys(c.Branches), func(a, b record.Branch) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	bw.WriteString(indent + strconv.Itoa(len(branches)) + "\n")
	for _, b := range branches {
		line = appendCounter(append(line[:0], indent...), b.From-base, "->", b.To-base, c.Branches[b])
		bw.Write(line)
	}
}

func appendCounter(b []byte, from uint64, sep string, to, n uint64) []byte {
	b = strconv.AppendUint(b, from, 16)
	b = append(b, sep...)
	b = strconv.AppendUint(b, to, 16)
	b = append(b, ':')
	b = strconv.AppendUint(b, n, 10)
	return append(b, '\n')
}

// ParseError is a malformed line of an unsymbolized profile.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }
