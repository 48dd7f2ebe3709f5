package driver

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"io"
	"sync"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/fpskid"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/symbolize"
)

// Binary is the profiled binary: the one object-file opener's File.
type Binary = *binary.File

// binaries are the profiled binaries, each opened once.
type binaries struct {
	files     []*binary.File
	filePaths []string     // the file each was opened from (its htlhash, profilematch.go)
	cache     *BinaryCache // owns files when the caller gave one (Options.BinaryCache)
	// syms are the binaries' symbolizers, each built once on first use:
	// by the symbol prefetch's goroutine or by the scan, whichever asks
	// first, the other waiting for it.
	syms []lazyTable
	// goSyms are the same over the pclntab of Go binaries, for pprof:
	// built by the scan alone (pprof has no symbol prefetch).
	goSyms        []*symbolize.GoTable
	goLinesWarned []bool // a warning said the pclntab could not be read
	// prechecks are the stack checks that read the binaries' code on
	// goroutines of their own: Close waits for them.
	prechecks     []*fpskid.Prechecker
	notFound      []recordedBinary // binaries of the recording not found by their build ids
	separateDebug bool             // --debug-binary: the DWARF is in another file
	dwp           string           // --dwp: the DWARF package of the primary binary
	warn          io.Writer        // llvm-profgen's warnings about loading the DWARF
	detailed      bool             // --show-detailed-warning
	binarySettings
	// views are those of other outputs' settings (forOutput): Close
	// closes their symbolizers.
	views []*binaries
}

// binarySettings are what an output changes in the symbolizers and
// generation options made of the binaries.
type binarySettings struct {
	goPclntab   bool // pprof of Go binaries symbolizes Go code from the pclntab
	symbolsOnly bool // a binary without DWARF is symbolized by its ELF symbols
	symtabFuncs bool // a probe binary's functions its DWARF lacks come from its ELF symbols
	gccOutput   bool // --format=gcc: a GCC-built binary's discriminators are plain (plainDiscriminators)
}

// settingsOf are the binary settings of an output.
func settingsOf(o *output) binarySettings {
	symbolsOnly := formatColumns[o.format].needs == needSymbols
	return binarySettings{
		goPclntab:   o.format == formatPprof && !o.GoDWARF,
		symbolsOnly: symbolsOnly,
		symtabFuncs: !o.LLVM.NoSymtabFunctions && !o.UseDwarfCorrelation && !symbolsOnly,
		gccOutput:   o.format == formatGCC,
	}
}

// forOutput is the binaries as an output of the run reads them: b itself,
// or for an output of other settings (--also), a view of the same files
// with symbolizers of its own.
func (b *binaries) forOutput(o *output) *binaries {
	set := settingsOf(o)
	if set == b.binarySettings {
		return b
	}
	for _, v := range b.views {
		if v.binarySettings == set {
			return v
		}
	}
	v := *b
	v.binarySettings, v.views, v.prechecks = set, nil, nil
	v.syms = make([]lazyTable, len(b.files))
	v.goSyms = make([]*symbolize.GoTable, len(b.files))
	v.goLinesWarned = make([]bool, len(b.files))
	b.views = append(b.views, &v)
	return &v
}

// openBinaries opens every --binary (with --debug-binary for the one), or
// without --binary the binaries the recording sampled, found by their
// build ids; and checks, before any input is read, that symbolization
// will have DWARF.
func openBinaries(ctx context.Context, p *plan) (*binaries, error) {
	refs, notFound, err := binaryRefs(ctx, p)
	if err != nil {
		return nil, err
	}
	if len(p.Binaries) == 0 {
		if err := checkFoundOutput(p, refs); err != nil {
			return nil, err
		}
	}
	b := &binaries{notFound: notFound, binarySettings: settingsOf(p.first()), cache: p.cache}
	wantDWARF := p.anyOutput((*output).symbolized) && !p.LLVM.ShowDisassemblyOnly
	for _, ref := range refs {
		f, err := b.open(ref, wantDWARF)
		if err != nil {
			b.Close()
			return nil, err
		}
		b.files = append(b.files, f)
		b.filePaths = append(b.filePaths, ref.file)
	}
	b.syms = make([]lazyTable, len(b.files))
	b.goSyms = make([]*symbolize.GoTable, len(b.files))
	b.goLinesWarned = make([]bool, len(b.files))
	b.separateDebug = p.DebugBinary != ""
	b.dwp, b.warn, b.detailed = p.LLVM.DWP, p.Stderr, p.LLVM.ShowDetailedWarning
	if !wantDWARF || !p.anyOutput((*output).needsDWARF) {
		return b, nil // pprof names code without DWARF by its ELF symbols; a listing needs none
	}
	for _, f := range b.files {
		if _, err := f.DWARF(); err != nil {
			b.Close()
			return nil, fmt.Errorf("%s: no debug information to symbolize with (%v): %s", f.Path(), err, debugHint(p))
		}
	}
	return b, nil
}

// debugHint says where DWARF can come from.
func debugHint(p *plan) string {
	if len(p.Binaries) == 0 {
		return "build with -g, or put its debug file where it is found by build id (docs/binaries.md)"
	}
	return "build with -g, or give --debug-binary"
}

// open opens the binary (through the run's BinaryCache, if any); one
// found by its build id without DWARF, when symbolization wants DWARF,
// with the debug file found for it (if any).
func (b *binaries) open(r binaryRef, wantDWARF bool) (*binary.File, error) {
	f, err := b.cache.open(binaryKey{file: r.file, debug: r.debug, name: r.name})
	if err != nil && r.buildID == "" {
		return nil, fmt.Errorf("--binary %s: %w", r.name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s (build id %s, found as %s): %w", r.name, r.buildID, r.file, err)
	}
	if !wantDWARF || r.findDebug == nil || f.ELF().Section(".debug_info") != nil {
		return f, nil
	}
	debug, err := r.findDebug()
	if err != nil {
		return f, nil // said when the DWARF is found missing
	}
	b.closeFile(f)
	r.debug, r.findDebug = debug, nil
	return b.open(r, wantDWARF)
}

// closeFile closes f unless the run's BinaryCache keeps it.
func (b *binaries) closeFile(f *binary.File) {
	if b.cache == nil {
		f.Close()
	}
}

func (b *binaries) Close() {
	for _, p := range b.prechecks {
		p.Close()
	}
	for _, v := range b.views {
		v.closeSymbolizers()
	}
	b.closeSymbolizers()
	for _, f := range b.files {
		b.closeFile(f)
	}
}

// closeSymbolizers closes the symbolizers built.
func (b *binaries) closeSymbolizers() {
	for i := range b.syms {
		if t := b.syms[i].built(); t != nil {
			t.Close()
		}
	}
}

// needsDWARF reports whether the output cannot be written without the
// binaries' DWARF.
func (o *output) needsDWARF() bool { return formatColumns[o.format].needs == needDWARF }

func (b *binaries) primary() *binary.File { return b.files[0] }

// addrspaceBinary describes the primary binary for the LBR bases.
func (b *binaries) addrspaceBinary() addrspace.Binary { return addrspaceBinary(b.primary()) }

func addrspaceBinary(f *binary.File) addrspace.Binary {
	return addrspace.Binary{Path: f.Path(), PreferredBase: f.PreferredBase(), TextOffset: f.TextSegmentOffset(), COFF: f.IsCOFF()}
}

// newTable returns the per-process table of a scan, which places LBR
// samples in each binary (the primary one as the kernel with --kernel).
func (b *binaries) newTable(p *plan) *addrspace.Table {
	abs := make([]addrspace.Binary, len(b.files))
	for i, f := range b.files {
		abs[i] = addrspaceBinary(f)
	}
	abs[0].Kernel = p.LLVM.Kernel
	return addrspace.NewOf(abs, p.PIDs)
}

// only is the view of binary i alone, as if it were the one --binary: a
// profile of one binary's LBR counts is built by the code that builds it
// for one. It shares the binaries' files and symbolizers.
func (b *binaries) only(i int) *binaries {
	if len(b.files) == 1 {
		return b
	}
	v := *b
	v.files, v.filePaths, v.syms = b.files[i:i+1], b.filePaths[i:i+1], b.syms[i:i+1]
	v.goSyms, v.goLinesWarned = b.goSyms[i:i+1], b.goLinesWarned[i:i+1]
	v.prechecks, v.notFound, v.views = nil, nil, nil
	if i != 0 {
		v.dwp = "" // --dwp is the primary binary's
	}
	return &v
}

func (b *binaries) stackBinaries() []aggregate.StackBinary {
	out := make([]aggregate.StackBinary, len(b.files))
	for i, f := range b.files {
		out[i] = f
	}
	return out
}

// newStacks returns the call-stack aggregation over the binaries, which
// knows the binaries not found.
func (b *binaries) newStacks(table *addrspace.Table) *aggregate.Stacks {
	s := aggregate.NewStacks(b.stackBinaries(), table)
	if len(b.notFound) > 0 {
		paths := make([]string, len(b.notFound))
		for i, r := range b.notFound {
			paths[i] = r.path
		}
		s.MarkNotFound(paths)
	}
	return s
}

// lazyTable is one binary's symbolizer, built at most once.
type lazyTable struct {
	once sync.Once
	t    *symbolize.Table
	err  error
}

// built returns the table, after waiting for a build under way; nil when
// none was built, and none will be after it.
func (l *lazyTable) built() *symbolize.Table {
	l.once.Do(func() {})
	return l.t
}

// symbolizer returns binary i's symbolizer: its DWARF, the function
// entries its symbols mark, and its ELF and PLT symbols as a fallback.
// It is built once, and safe to ask for from several goroutines.
func (b *binaries) symbolizer(i int) (*symbolize.Table, error) {
	l := &b.syms[i]
	l.once.Do(func() { l.t, l.err = b.buildSymbolizer(i) })
	return l.t, l.err
}

func (b *binaries) buildSymbolizer(i int) (*symbolize.Table, error) {
	f := b.files[i]
	syms := symbols(f.FuncSymbols())
	t, err := b.dwarfTable(f, b.dwpOf(i), syms)
	if err != nil {
		return nil, err
	}
	b.warnSplit(t, i)
	t.MarkEntries(syms)
	t.AddSymbols(syms)
	t.AddSymbols(symbols(f.PLTSymbols()))
	if b.symtabFuncs && pseudoprobe.In(f.ELF()) {
		t.AddSymtabFunctions(syms)
	}
	return t, nil
}

// frameSymbolizer symbolizes the frames of call stacks.
type frameSymbolizer interface {
	FramesOrSymbol(addr uint64, dst []symbolize.Frame) []symbolize.Frame
	Prefetch(addrs []uint64)
}

// stackSymbolizer returns what symbolizes binary i's call-stack frames:
// symbolizer(i), over the pclntab of a Go binary when the output is pprof
// (the frames Go's own profiler gives, without reading the DWARF of the
// Go code).
func (b *binaries) stackSymbolizer(i int) (frameSymbolizer, error) {
	t, err := b.symbolizer(i)
	if err != nil || !b.goPclntab {
		return t, err
	}
	if b.goSyms[i] == nil {
		lines := b.files[i].GoLines()
		if lines == nil {
			b.warnGoLines(i)
			return t, nil
		}
		b.goSyms[i] = symbolize.NewGo(lines, t)
	}
	return b.goSyms[i], nil
}

// warnGoLines says, once, why the pclntab binary i has could not be read:
// its Go code is then symbolized from its DWARF.
func (b *binaries) warnGoLines(i int) {
	if err := b.files[i].GoLinesErr(); err != nil && !b.goLinesWarned[i] {
		b.goLinesWarned[i] = true
		fmt.Fprintf(b.warn, "profgen: warning: %v; Go code symbolized from DWARF\n", err)
	}
}

// dwarfTable reads the DWARF of f, naming after syms (f's function
// symbols) the C++ functions its DWARF gives no linkage name; without
// DWARF, an empty table when ELF symbols will do.
func (b *binaries) dwarfTable(f *binary.File, dwp string, syms []symbolize.Symbol) (*symbolize.Table, error) {
	d, err := f.DWARF()
	if err != nil && b.symbolsOnly {
		return new(symbolize.Table), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: debug info: %w", f.Path(), err)
	}
	split := &symbolize.Split{Section: f.DWARFSection, DWP: dwp}
	t, err := symbolize.New(d, symbolize.Options{PreferredBase: f.PreferredBase(), Info: b.debugInfo(f), Split: split,
		Section: f.DWARFSection, Symbols: syms})
	if err != nil {
		return nil, fmt.Errorf("%s: debug info: %w", f.Path(), err)
	}
	return t, nil
}

// dwpOf is the DWARF package of binary i's split units: --dwp for the
// primary binary, else (as llvm-profgen's default) the path of the file
// holding the DWARF with ".dwp" appended.
func (b *binaries) dwpOf(i int) string {
	if i == 0 && b.dwp != "" {
		return b.dwp
	}
	return b.files[i].DWARFPath() + ".dwp"
}

// warnSplit prints llvm-profgen's warnings about split units not found,
// and profgen's when an explicit --dwp could not be read.
func (b *binaries) warnSplit(t *symbolize.Table, i int) {
	r := t.Split()
	if r.Units == 0 {
		return
	}
	if i == 0 && b.dwp != "" && r.DWPErr != nil {
		fmt.Fprintf(b.warn, "profgen: warning: --dwp: %v; the .dwo files were read instead\n", r.DWPErr)
	}
	if len(r.Missing) == 0 {
		return
	}
	if b.detailed {
		for _, name := range r.Missing {
			fmt.Fprintf(b.warn, "warning: DWO debug information for %s was not loaded.\n", name)
		}
	}
	fmt.Fprintf(b.warn, "warning:  DWO debug information was not loaded for %d modules. Please check the .o, .dwo or .dwp path.\n", len(r.Missing))
	if len(r.Missing) == r.Units && len(t.Functions()) == 0 {
		fmt.Fprintln(b.warn, "warning: Loading of DWARF info completed, but no binary functions have been retrieved.")
	}
}

// debugInfo is the binary's .debug_info section, for symbolize to load
// compilation units on demand (a compressed one inflated, as its DWARF
// was read); nil when the DWARF is in a separate file (symbolize then
// loads it all).
func (b *binaries) debugInfo(f *binary.File) io.ReaderAt {
	s := f.ELF().Section(".debug_info")
	switch {
	case f.DWARFPath() != f.Path() || s == nil: // the DWARF is in another file
		return nil
	case s.Flags&elf.SHF_COMPRESSED != 0:
		info, err := f.DWARFSection(".debug_info")
		if err != nil || info == nil {
			return nil
		}
		return bytes.NewReader(info)
	}
	return s
}

// generateOptions are binary i's options for profile generation.
func (b *binaries) generateOptions(i int) generate.Options {
	// Plain discriminators are kept as they are, as flow-sensitive ones.
	return generate.Options{FSDiscriminators: b.plainDiscriminators(i) || definesSymbol(b.files[i], generate.FSDiscriminatorSymbol)}
}

// symbols converts the binary's symbols for the symbolizer.
func symbols(syms []binary.Symbol) []symbolize.Symbol {
	out := make([]symbolize.Symbol, len(syms))
	for i, s := range syms {
		out[i] = symbolize.Symbol{Addr: s.Addr, Name: s.Name, Size: s.Size}
	}
	return out
}

func definesSymbol(f *binary.File, name string) bool {
	syms, _ := f.ELF().Symbols()
	for _, s := range syms {
		if s.Name == name {
			return true
		}
	}
	return false
}
