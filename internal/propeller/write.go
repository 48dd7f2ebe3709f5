package propeller

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CCVersion is a version of the cc profile's format.
type CCVersion uint8

// The versions clang reads: v1 since LLVM 18, v0 before.
const (
	CCv1 CCVersion = 1
	CCv0 CCVersion = 0
)

// ParseCCVersion reads "v1" or "v0".
func ParseCCVersion(s string) (CCVersion, error) {
	switch s {
	case "v1", "1":
		return CCv1, nil
	case "v0", "0":
		return CCv0, nil
	}
	return 0, fmt.Errorf("unknown cc profile version %q: v1 (clang 18 and later) or v0", s)
}

// CCOptions say how to write the cc profile.
type CCOptions struct {
	Version CCVersion
	// Edges adds the g lines of block and edge counts (v1 only).
	Edges bool
}

// WriteCC writes the cc profile clang reads with
// -fbasic-block-sections=list=FILE.
func WriteCC(w io.Writer, p *Profile, opts CCOptions) error {
	bw := bufio.NewWriter(w)
	if opts.Version == CCv1 {
		bw.WriteString("v1\n")
	}
	for _, f := range p.Funcs {
		if opts.Version == CCv1 {
			writeV1Func(bw, f, opts.Edges)
		} else {
			writeV0Func(bw, f)
		}
	}
	return bw.Flush()
}

// writeV1Func writes `m module` if any, `f names`, a `c` line per
// cluster, and the `g` line.
func writeV1Func(w *bufio.Writer, f Func, edges bool) {
	if f.Module != "" {
		fmt.Fprintf(w, "m %s\n", f.Module)
	}
	fmt.Fprintf(w, "f %s\n", strings.Join(f.Names, " "))
	for _, c := range f.Clusters {
		fmt.Fprintf(w, "c %s\n", joinIDs(c))
	}
	if edges {
		writeEdges(w, f.Blocks)
	}
}

// writeEdges writes `g id:count,succ:count,... ...`.
func writeEdges(w *bufio.Writer, blocks []BlockCount) {
	w.WriteString("g")
	for _, b := range blocks {
		fmt.Fprintf(w, " %d:%d", b.ID, b.Count)
		for _, s := range b.Succs {
			fmt.Fprintf(w, ",%d:%d", s.ID, s.Count)
		}
	}
	w.WriteString("\n")
}

// writeV0Func writes `!name/alias` and a `!!` line per cluster.
func writeV0Func(w *bufio.Writer, f Func) {
	module := ""
	if f.Module != "" {
		module = " M=" + f.Module
	}
	fmt.Fprintf(w, "!%s%s\n", strings.Join(f.Names, "/"), module)
	for _, c := range f.Clusters {
		fmt.Fprintf(w, "!!%s\n", joinIDs(c))
	}
}

func joinIDs(ids []uint32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(uint64(id), 10)
	}
	return strings.Join(s, " ")
}

// WriteLD writes the ld profile lld reads with --symbol-ordering-file:
// each function's symbol in order, then the .cold part of each function
// that has one, in the same order; a name of two functions (static ones
// of two files, told apart by their modules) once, lld ordering every
// local symbol of that name there.
func WriteLD(w io.Writer, p *Profile) error {
	bw := bufio.NewWriter(w)
	seen := map[string]bool{}
	line := func(sym string) {
		if !seen[sym] {
			seen[sym] = true
			fmt.Fprintln(bw, sym)
		}
	}
	for _, f := range p.Funcs {
		line(f.Names[0])
	}
	for _, f := range p.Funcs {
		if f.Cold {
			line(f.Names[0] + ".cold")
		}
	}
	return bw.Flush()
}
