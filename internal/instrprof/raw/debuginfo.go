package raw

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/profgen/profgen/internal/dwarfread"
	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/leb128"
)

// Probe is what clang's -mllvm -profile-correlate=debug-info leaves in the
// DWARF for one function: a DW_TAG_variable named __profc_<function>
// inside the function's DW_TAG_subprogram, whose location is the address
// of its counters and whose DW_TAG_LLVM_annotation children name the
// function ("Function Name"), its CFG hash ("CFG Hash") and its counter
// count ("Num Counters").
type Probe struct {
	Name          string
	LinkageName   string // the subprogram's DW_AT_linkage_name
	CFGHash       uint64
	CounterOffset uint64 // from the start of __llvm_prf_cnts
	NumCounters   uint32
	FunctionPtr   uint64 // the subprogram's DW_AT_low_pc (0: none)
	File          string // the subprogram's DW_AT_decl_file, as written
	Line          int64  // the subprogram's DW_AT_decl_line (0: none)
}

// DebugInfo is the profile metadata of a binary's DWARF.
type DebugInfo struct {
	Path   string
	Probes []Probe
	// CountersSize is the size of __llvm_prf_cnts.
	CountersSize uint64
	// Warnings are llvm-profdata's words for the incomplete probes left out,
	// at most the limit asked for, then how many more were suppressed.
	Warnings []string
}

// errNoProbes is llvm-profdata's error for a binary without probes.
var errNoProbes = errors.New("unable to correlate profile: could not find any profile data metadata in correlated file")

// dwTagLLVMAnnotation is DW_TAG_LLVM_annotation, which debug/dwarf does
// not name.
const dwTagLLVMAnnotation dwarf.Tag = 0x6000

// The DWARF expression operations a probe's location is read from.
const (
	dwOpAddr  = 0x03
	dwOpAddrx = 0xa1
)

// countersPrefix starts the name of a function's counters variable.
const countersPrefix = "__profc_"

// ReadDebugInfo reads the probes of the ELF binary at path, in the order
// of its DWARF, keeping the first of probes sharing counters and warning
// of incomplete ones as llvm-profdata does: at most maxWarnings (0: no
// limit).
func ReadDebugInfo(path string, maxWarnings int) (*DebugInfo, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("debug info: %w", err)
	}
	defer f.Close()
	return readDebugInfo(path, f, maxWarnings)
}

// readDebugInfo is ReadDebugInfo of the open ELF file f.
func readDebugInfo(path string, f *elf.File, maxWarnings int) (*DebugInfo, error) {
	cnts := f.Section("__llvm_prf_cnts")
	if cnts == nil {
		return nil, fmt.Errorf("%s: unable to correlate profile: could not find section (__llvm_prf_cnts)", path)
	}
	if f.Section(".debug_info") == nil {
		return &DebugInfo{Path: path}, fmt.Errorf("%s: %w", path, errNoProbes)
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w := &probeWalker{d: d, order: f.ByteOrder, cntsAddr: cnts.Addr, cntsEnd: cnts.Addr + cnts.Size,
		warn: warnLimit{max: maxWarnings}, seen: map[uint64]bool{}}
	for _, sec := range []struct {
		name string
		data *[]byte
	}{{".debug_addr", &w.debugAddr}, {".debug_line", &w.debugLine}} {
		if s := f.Section(sec.name); s != nil {
			if *sec.data, err = s.Data(); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", path, sec.name, err)
			}
		}
	}
	if err := w.walk(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	info := &DebugInfo{Path: path, Probes: w.probes, CountersSize: cnts.Size, Warnings: w.warn.done()}
	if len(info.Probes) == 0 {
		return info, fmt.Errorf("%s: %w", path, errNoProbes)
	}
	return info, nil
}

// OpenDebugInfoCorrelation is the Correlation of a binary built with
// -g -mllvm -profile-correlate=debug-info: its probes are the records,
// their names the names.
func OpenDebugInfoCorrelation(path string, maxWarnings int) (*Correlation, []string, error) {
	info, err := ReadDebugInfo(path, maxWarnings)
	if err != nil {
		var warnings []string
		if info != nil {
			warnings = info.Warnings
		}
		return nil, warnings, err
	}
	c := &Correlation{Path: path, cntsSize: info.CountersSize, fixed: true, names: &nameTable{byRef: map[uint64]string{}}}
	c.recs = make([]dataRecord, len(info.Probes))
	for i, p := range info.Probes {
		ref := instrprof.NameRef(p.Name)
		c.names.byRef[ref] = p.Name
		c.recs[i] = dataRecord{nameRef: ref, funcHash: p.CFGHash, counterPtr: p.CounterOffset, funcPtr: p.FunctionPtr, numCounters: p.NumCounters}
	}
	return c, info.Warnings, nil
}

// probeWalker walks the DIEs of every unit, keeping the probes.
type probeWalker struct {
	d                 *dwarf.Data
	order             binary.ByteOrder
	debugAddr         []byte
	debugLine         []byte // to check line table headers (dwarfread.BoundedLine)
	cntsAddr, cntsEnd uint64
	warn              warnLimit
	seen              map[uint64]bool // counter offsets of the probes kept
	probes            []Probe

	// The unit being read: its .debug_addr base, address size and files.
	addrBase int64
	addrSize int
	files    []*dwarf.LineFile
	compDir  string
}

// walk reads every DIE, keeping the subprogram each one lies in.
func (w *probeWalker) walk() error {
	r := dwarfread.NewReader(w.d)
	var parents []*dwarf.Entry // the open DIEs with children, innermost last
	for {
		e, err := r.Next()
		if err != nil {
			return err
		}
		if e == nil {
			return nil
		}
		if e.Tag == 0 {
			if len(parents) > 0 {
				parents = parents[:len(parents)-1]
			}
			continue
		}
		if e.Tag == dwarf.TagCompileUnit || e.Tag == dwarf.TagPartialUnit {
			parents = parents[:0]
			w.startUnit(r.Reader, e)
		}
		if e.Tag == dwarf.TagVariable && len(parents) > 0 && parents[len(parents)-1].Tag == dwarf.TagSubprogram && isProbeName(e) && e.Children {
			if err := w.probe(r.Reader, e, parents[len(parents)-1]); err != nil {
				return err
			}
			continue // probe read the variable's children
		}
		if e.Children {
			parents = append(parents, e)
		}
	}
}

func isProbeName(e *dwarf.Entry) bool {
	name, _ := e.Val(dwarf.AttrName).(string)
	return strings.HasPrefix(name, countersPrefix)
}

// startUnit notes what reading the unit's probes needs.
func (w *probeWalker) startUnit(r *dwarf.Reader, cu *dwarf.Entry) {
	w.addrBase, _ = cu.Val(dwarf.AttrAddrBase).(int64)
	w.addrSize = r.AddressSize()
	w.files = nil
	w.compDir, _ = cu.Val(dwarf.AttrCompDir).(string)
	if lr, err := dwarfread.LineReader(w.d, cu, w.debugLine); err == nil && lr != nil {
		w.files = lr.Files()
	}
}

// annotations are the values of a probe's DW_TAG_LLVM_annotation children.
type annotations struct {
	name        *string
	hash, count *uint64
}

// probe reads the probe variable e of subprogram fn and its children.
func (w *probeWalker) probe(r *dwarf.Reader, e, fn *dwarf.Entry) error {
	a, err := readAnnotations(r)
	if err != nil {
		return err
	}
	counters, hasCounters := w.location(e)
	fnPtr, hasFn := fn.Val(dwarf.AttrLowpc).(uint64)
	if !hasFn && !hasCounters {
		return nil // dead-stripped
	}
	if a.name == nil || a.hash == nil || !hasCounters || a.count == nil {
		w.warn.add(fmt.Sprintf("Incomplete DIE for function %s: CFGHash=%s  CounterPtr=%s  NumCounters=%s",
			optional(a.name), optional(a.hash), optionalIf(counters, hasCounters), optional(a.count)))
		return nil
	}
	if counters < w.cntsAddr || counters >= w.cntsEnd {
		w.warn.add(fmt.Sprintf("CounterPtr out of range for function %s: Actual=0x%x Expected=[0x%x, 0x%x)", *a.name, counters, w.cntsAddr, w.cntsEnd))
		return nil
	}
	if !hasFn {
		w.warn.add("Could not find address of function " + *a.name)
	}
	off := counters - w.cntsAddr
	if w.seen[off] {
		return nil
	}
	w.seen[off] = true
	p := Probe{Name: *a.name, CFGHash: *a.hash, CounterOffset: off, NumCounters: uint32(*a.count), FunctionPtr: fnPtr}
	w.describe(&p, fn)
	w.probes = append(w.probes, p)
	return nil
}

// describe fills in where the probe's function is declared.
func (w *probeWalker) describe(p *Probe, fn *dwarf.Entry) {
	p.LinkageName, _ = fn.Val(dwarf.AttrLinkageName).(string)
	if p.LinkageName == "" {
		p.LinkageName, _ = fn.Val(dwarf.AttrName).(string)
	}
	p.Line, _ = fn.Val(dwarf.AttrDeclLine).(int64)
	if i, ok := fn.Val(dwarf.AttrDeclFile).(int64); ok && i >= 0 && int(i) < len(w.files) && w.files[i] != nil {
		p.File = w.relative(w.files[i].Name)
	}
}

// relative is a file's path as LLVM's RelativeFilePath gives it: without
// the compilation directory, which debug/dwarf prefixes.
func (w *probeWalker) relative(path string) string {
	if w.compDir != "" {
		if rest, ok := strings.CutPrefix(path, strings.TrimSuffix(w.compDir, "/")+"/"); ok {
			return rest
		}
	}
	return path
}

// readAnnotations reads the children of a probe variable.
func readAnnotations(r *dwarf.Reader) (annotations, error) {
	var a annotations
	for depth := 1; depth > 0; {
		c, err := r.Next()
		if err != nil || c == nil {
			return a, err
		}
		switch {
		case c.Tag == 0:
			depth--
			continue
		case c.Children:
			depth++
		}
		if depth == 1 && c.Tag == dwTagLLVMAnnotation {
			a.set(c)
		}
	}
	return a, nil
}

// set takes the value of one annotation.
func (a *annotations) set(c *dwarf.Entry) {
	name, _ := c.Val(dwarf.AttrName).(string)
	v := c.Val(dwarf.AttrConstValue)
	if v == nil {
		return
	}
	switch name {
	case "Function Name":
		if s, ok := v.(string); ok {
			a.name = &s
		}
	case "CFG Hash":
		a.hash = unsigned(v)
	case "Num Counters":
		a.count = unsigned(v)
	}
}

// unsigned is a constant's value as an unsigned number.
func unsigned(v any) *uint64 {
	var u uint64
	switch n := v.(type) {
	case int64:
		u = uint64(n)
	case uint64:
		u = n
	default:
		return nil
	}
	return &u
}

// location is the address a probe variable's DW_AT_location names with
// its first operation, DW_OP_addr or DW_OP_addrx.
func (w *probeWalker) location(e *dwarf.Entry) (uint64, bool) {
	expr, _ := e.Val(dwarf.AttrLocation).([]byte)
	if len(expr) == 0 {
		return 0, false
	}
	switch expr[0] {
	case dwOpAddr:
		if len(expr) < 1+w.addrSize {
			return 0, false
		}
		return w.address(expr[1:]), true
	case dwOpAddrx:
		idx, n := leb128.Uint(expr[1:])
		if n == 0 {
			return 0, false
		}
		off := uint64(w.addrBase) + idx*uint64(w.addrSize)
		if w.addrBase < 0 || off < idx || off+uint64(w.addrSize) > uint64(len(w.debugAddr)) {
			return 0, false
		}
		return w.address(w.debugAddr[off:]), true
	}
	return 0, false
}

func (w *probeWalker) address(b []byte) uint64 {
	if w.addrSize == 4 {
		return uint64(w.order.Uint32(b))
	}
	return w.order.Uint64(b)
}

// optional prints an optional value as LLVM prints a std::optional.
func optional[T string | uint64](v *T) string {
	if v == nil {
		return "None"
	}
	return fmt.Sprint(*v)
}

func optionalIf(v uint64, ok bool) string {
	if !ok {
		return "None"
	}
	return fmt.Sprint(v)
}

// warnLimit keeps at most max warnings (0: every one) and counts the rest.
type warnLimit struct {
	max        int
	kept       []string
	suppressed int
}

func (l *warnLimit) add(msg string) {
	if l.max == 0 || len(l.kept) < l.max {
		l.kept = append(l.kept, msg)
		return
	}
	l.suppressed++
}

// done is the warnings kept and, after them, the count of the others.
func (l *warnLimit) done() []string {
	if l.suppressed > 0 {
		return append(l.kept, fmt.Sprintf("Suppressed %d additional warnings", l.suppressed))
	}
	return l.kept
}
