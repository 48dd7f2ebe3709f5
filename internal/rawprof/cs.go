package rawprof

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/quote"
)

// Context is the counters of one calling context of a context-sensitive
// unsymbolized profile.
type Context struct {
	// Name is the context as written between the brackets: frames
	// `main:3 @ foo` for line-number profiles, addresses `0x7f4 @ 0x7bf`
	// for pseudo-probe ones; "" for the empty context.
	Name     string
	Counters *aggregate.Counters
	// Line is where the context first appears (ReadCS), for errors about
	// its name; 0 when not read from a file.
	Line int
}

// WriteCS writes a context-sensitive unsymbolized profile: each context,
// in the byte order of its name (as llvm-profgen's std::map), with its
// counters indented by two spaces. Contexts of one name are written once,
// with their counters summed.
func WriteCS(w io.Writer, ctxs []Context, base uint64) error {
	byName := map[string]*aggregate.Counters{}
	for _, c := range ctxs {
		m := byName[c.Name]
		if m == nil {
			m = aggregate.NewCounters()
			byName[c.Name] = m
		}
		m.Add(c.Counters)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	bw := bufio.NewWriterSize(w, 1<<16)
	for _, n := range names {
		bw.WriteString("[" + n + "]\n")
		writeCounters(bw, byName[n], base, "  ")
	}
	return bw.Flush()
}

// ReadCS reads an unsymbolized profile of either form. A context-sensitive
// one gives its contexts in the order of their first appearance, repeated
// ones summed, and cs true; a context-insensitive one gives one context
// named "" and cs false.
func ReadCS(r io.Reader, name string, base uint64) (ctxs []Context, cs bool, err error) {
	rd := newReader(r, name)
	index := map[string]int{}
	for {
		l, ok, err := rd.peek()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			return ctxs, cs, nil
		}
		ctxName := ""
		if len(l) > 0 && l[0] == '[' {
			ctxName, ok = contextName(string(l))
			if !ok {
				return nil, false, rd.errorf("want a context [frame @ frame ...], got %s", quote.Bytes(l))
			}
			cs = true
			rd.skip()
		}
		i, seen := index[ctxName]
		if !seen {
			i = len(ctxs)
			index[ctxName] = i
			ctxs = append(ctxs, Context{Name: ctxName, Counters: aggregate.NewCounters(), Line: rd.line})
		}
		if err := rd.counters(ctxs[i].Counters, base); err != nil {
			return nil, false, err
		}
	}
}

// contextName returns what is between the brackets of a context line.
func contextName(l string) (string, bool) {
	l = strings.TrimRight(l, " \t")
	if len(l) < 2 || l[len(l)-1] != ']' {
		return "", false
	}
	return l[1 : len(l)-1], true
}

// AddressContextName is the text of a pseudo-probe context
// (llvm-profgen's address-based context key): its call-site addresses,
// outermost first, as hex offsets from base, joined by " @ ":
// "0x7f4 @ 0x7bf".
func AddressContextName(addrs []uint64, base uint64) string {
	var b []byte
	for i, a := range addrs {
		if i > 0 {
			b = append(b, " @ "...)
		}
		b = append(b, "0x"...)
		b = strconv.AppendUint(b, a-base, 16)
	}
	return string(b)
}

// ParseAddressContext reads the text of a pseudo-probe context
// (AddressContextName) back into canonical addresses.
func ParseAddressContext(name string, base uint64) ([]uint64, error) {
	if name == "" {
		return nil, nil
	}
	parts := strings.Split(name, " @ ")
	addrs := make([]uint64, len(parts))
	for i, p := range parts {
		hex, ok := strings.CutPrefix(p, "0x")
		off, err := strconv.ParseUint(hex, 16, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("call site %s is not a hex address (0x...): the profile is not of a binary with pseudo probes", quote.String(p))
		}
		addrs[i] = off + base
	}
	return addrs, nil
}
