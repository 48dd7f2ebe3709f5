package text

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/quote"
)

// Info describes a text profile read.
type Info struct {
	Kind        instrprof.Kind
	Records     int
	Traces      []instrprof.Trace // temporal profile traces
	TraceStream uint64
	// TargetNames are the names of the call and vtable targets of the
	// value sites (their MD5 is what the records hold), in order met.
	TargetNames []string
}

// Func receives each record with the line number its name is on.
type Func func(rec *instrprof.Record, line int64) error

// headerKinds are the ":name" header lines, in lower case (LLVM compares
// them in any case), and the variant bits each sets or clears.
var headerKinds = map[string]headerKind{
	"ir": {set: instrprof.KindIR}, "csir": {set: instrprof.KindIR | instrprof.KindCS}, "fe": {},
	"entry_first": {set: instrprof.KindEntryFirst}, "not_entry_first": {clear: instrprof.KindEntryFirst},
	"single_byte_coverage":    {set: instrprof.KindByteCoverage},
	"instrument_loop_entries": {set: instrprof.KindLoopEntries},
}

// headerKind is what one header line does to the profile's variant bits.
type headerKind struct{ set, clear instrprof.Kind }

// externalSymbol is how LLVM writes an indirect-call target it has no
// name for; it reads it back as value 0.
const externalSymbol = "** External Symbol **"

// Read reads an instrumentation text profile (llvm-profdata merge --text's
// output, .proftext) as llvm-profdata's text reader does: '#' lines are
// comments, ':' lines the kind header, then per function its name, CFG
// hash, counters, optional "$N" bitmap bytes and value sites. Errors name
// file and line.
func Read(file string, r io.Reader, fn Func) (Info, error) {
	tr := &reader{file: file, br: bufio.NewReaderSize(r, 1<<16), seen: map[string]bool{}}
	var info Info
	if err := tr.header(&info); err != nil {
		return info, err
	}
	for {
		rec, line, err := tr.record()
		info.TargetNames = tr.names
		if err == io.EOF {
			return info, nil
		}
		if err != nil {
			return info, err
		}
		info.Records++
		if err := fn(rec, line); err != nil {
			return info, err
		}
	}
}

// reader reads the significant lines (not blank, not comments) of a text
// profile, one line of lookahead.
type reader struct {
	file   string
	br     *bufio.Reader
	line   int64
	peeked *string
	names  []string // value-site target names
	seen   map[string]bool
}

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.file, r.line, fmt.Sprintf(format, args...))
}

// peek returns the next significant line without taking it.
func (r *reader) peek() (string, error) {
	if r.peeked != nil {
		return *r.peeked, nil
	}
	for {
		s, err := r.br.ReadString('\n')
		if s == "" && err != nil {
			return "", err
		}
		r.line++
		s = strings.TrimRight(s, "\r\n")
		if t := strings.TrimSpace(s); t != "" && t[0] != '#' {
			r.peeked = &s
			return s, nil
		}
	}
}

func (r *reader) next() (string, error) {
	s, err := r.peek()
	r.peeked = nil
	return s, err
}

// number reads a line holding a decimal number: what names it.
func (r *reader) number(what string) (uint64, error) {
	return r.numberRadix(what, 10, 64)
}

// numberRadix reads a line holding a number of the radix and bits; radix 0
// senses it from the prefix as LLVM's StringRef::getAsInteger(0) does.
func (r *reader) numberRadix(what string, radix, bits int) (uint64, error) {
	s, err := r.next()
	if err == io.EOF {
		return 0, r.errorf("truncated: %s expected", what)
	}
	if err != nil {
		return 0, err
	}
	n, perr := parseUint(strings.TrimSpace(s), radix, bits)
	if perr != nil {
		return 0, r.errorf("%s is not a valid integer: %s", what, quote.String(s))
	}
	return n, nil
}

// parseUint parses s in the radix; radix 0 takes LLVM's prefixes (0x hex,
// 0b binary, 0o or a leading 0 octal, else decimal), which differ from
// strconv's for "0o" and "0_".
func parseUint(s string, radix, bits int) (uint64, error) {
	if radix == 0 {
		radix = 10
		switch {
		case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
			s, radix = s[2:], 16
		case len(s) > 2 && (s[:2] == "0b" || s[:2] == "0B"):
			s, radix = s[2:], 2
		case len(s) > 2 && s[:2] == "0o":
			s, radix = s[2:], 8
		case len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9':
			s, radix = s[1:], 8
		}
	}
	if strings.ContainsAny(s, "_+-") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, radix, bits)
}

func (r *reader) header(info *Info) error {
	for {
		s, err := r.peek()
		if err != nil || !strings.HasPrefix(s, ":") {
			return nil
		}
		name := strings.ToLower(s[1:])
		r.next()
		if name == "temporal_prof_traces" {
			info.Kind |= instrprof.KindTemporal
			if err := r.traces(info); err != nil {
				return err
			}
			continue
		}
		k, ok := headerKinds[name]
		if !ok {
			return r.errorf("header %s is not supported", quote.String(s))
		}
		info.Kind = info.Kind&^k.clear | k.set
	}
}

// traces reads the temporal profile traces block: count, stream size,
// then per trace its weight and a line of comma-separated names.
func (r *reader) traces(info *Info) error {
	n, err := r.number("number of temporal profile traces")
	if err != nil {
		return err
	}
	if info.TraceStream, err = r.number("temporal profile trace stream size"); err != nil {
		return err
	}
	for range n {
		t := instrprof.Trace{}
		if t.Weight, err = r.number("trace weight"); err != nil {
			return err
		}
		line, err := r.next()
		if err != nil {
			return r.errorf("truncated: temporal profile trace expected")
		}
		for _, name := range strings.Split(line, ",") {
			if name = strings.TrimSpace(name); name != "" {
				t.Refs = append(t.Refs, instrprof.NameRef(name))
			}
		}
		info.Traces = append(info.Traces, t)
	}
	return nil
}

// record reads one function; io.EOF at the end of the profile.
func (r *reader) record() (*instrprof.Record, int64, error) {
	name, err := r.next()
	if err != nil {
		return nil, 0, err
	}
	line := r.line
	rec := &instrprof.Record{Name: name}
	if rec.Hash, err = r.numberRadix("function hash", 0, 64); err != nil {
		return nil, 0, err
	}
	if err := r.counters(rec); err != nil {
		return nil, 0, err
	}
	if err := r.bitmap(rec); err != nil {
		return nil, 0, err
	}
	return rec, line, r.values(rec)
}

func (r *reader) counters(rec *instrprof.Record) error {
	n, err := r.number("number of counters")
	if err != nil {
		return err
	}
	if n == 0 {
		return r.errorf("function %s has no counters", quote.String(rec.Name))
	}
	rec.Counts = make([]uint64, 0, min(n, 1<<16))
	for range n {
		c, err := r.number("counter")
		if err != nil {
			return err
		}
		rec.Counts = append(rec.Counts, c)
	}
	return nil
}

// bitmap reads "$N" and N hex bytes when the next line starts with '$'.
func (r *reader) bitmap(rec *instrprof.Record) error {
	s, err := r.peek()
	if err != nil || !strings.HasPrefix(s, "$") {
		return nil
	}
	r.next()
	n, perr := parseUint(strings.TrimSpace(s[1:]), 0, 32)
	if perr != nil {
		return r.errorf("number of bitmap bytes is not a valid integer: %s", quote.String(s))
	}
	for range n {
		b, err := r.next()
		v, perr := parseUint(strings.TrimSpace(b), 0, 8)
		if err != nil || perr != nil {
			return r.errorf("bitmap byte is not a valid integer: %s", quote.String(b))
		}
		rec.Bitmap = append(rec.Bitmap, byte(v))
	}
	return nil
}

// values reads the value sites when the next line is a number (the count
// of value kinds); otherwise the next function starts.
func (r *reader) values(rec *instrprof.Record) error {
	s, err := r.peek()
	if err != nil {
		return nil
	}
	if _, perr := strconv.ParseUint(strings.TrimSpace(s), 10, 32); perr != nil {
		return nil
	}
	kinds, _ := r.number("number of value kinds")
	if kinds == 0 || kinds > instrprof.NumValueKinds {
		return r.errorf("number of value kinds %d is invalid (1 to %d are)", kinds, instrprof.NumValueKinds)
	}
	for range kinds {
		if err := r.valueKind(rec); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) valueKind(rec *instrprof.Record) error {
	k, err := r.number("value kind")
	if err != nil {
		return err
	}
	if k >= instrprof.NumValueKinds {
		return r.errorf("value kind %d is not supported", k)
	}
	n, err := r.number("number of value sites")
	if err != nil {
		return err
	}
	sites := make([][]instrprof.Value, 0, min(n, 1<<16))
	for range n {
		vs, err := r.site(int(k))
		if err != nil {
			return err
		}
		sites = append(sites, vs)
	}
	// A kind listed twice adds its sites after the first list's, as LLVM's
	// reader appends them.
	rec.Sites[k] = append(rec.Sites[k], sites...)
	return nil
}

func (r *reader) site(kind int) ([]instrprof.Value, error) {
	n, err := r.number("number of values")
	if err != nil {
		return nil, err
	}
	var vs []instrprof.Value
	for range n {
		s, err := r.next()
		i := strings.LastIndexByte(s, ':')
		if err != nil || i < 0 {
			return nil, r.errorf("value %s is not VALUE:COUNT", quote.String(s))
		}
		if i == 0 && kind != instrprof.ValueMemOPSize {
			return nil, r.errorf("value %s: symbol name is empty", quote.String(s))
		}
		count, cerr := strconv.ParseUint(s[i+1:], 10, 64)
		v, verr := siteValue(kind, s[:i])
		r.noteName(kind, s[:i])
		if cerr != nil || verr != nil {
			return nil, r.errorf("value %s is not VALUE:COUNT", quote.String(s))
		}
		vs = append(vs, instrprof.Value{Value: v, Count: count})
	}
	return vs, nil
}

// noteName keeps a call or vtable target's name once.
func (r *reader) noteName(kind int, name string) {
	if kind == instrprof.ValueMemOPSize || name == externalSymbol || r.seen[name] {
		return
	}
	r.seen[name] = true
	r.names = append(r.names, name)
}

// siteValue is the value of an entry: the name's MD5 reference for call
// and vtable targets (0 for an external symbol), else the number.
func siteValue(kind int, s string) (uint64, error) {
	if kind == instrprof.ValueMemOPSize {
		return strconv.ParseUint(s, 10, 64)
	}
	if s == externalSymbol {
		return 0, nil
	}
	return instrprof.NameRef(s), nil
}
