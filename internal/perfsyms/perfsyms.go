// Package perfsyms names code addresses the way perf script prints them
// (its sym field), so that the native perf.data reader yields the symbol
// names perf would: for a DSO, the function symbols of the first file
// perf's search finds with a .symtab (the debug file under
// /usr/lib/debug/.build-id, perf's build-id cache in ~/.debug, the DSO
// itself), else its .dynsym, plus its PLT stubs as name@plt; for the
// kernel, the text symbols of kallsyms (/proc/kallsyms when the recording
// is of the running kernel, else the copy perf record kept in ~/.debug).
// A file whose build id differs from the one recorded is not used, as perf
// does not use it.
//
// In: DSO paths and DSO-relative addresses (file offsets; absolute
// addresses for the kernel), the build ids of the recording. Out: a
// symbol name, or "" when perf prints [unknown]. Names are not demangled.
package perfsyms

import (
	"bytes"
	"cmp"
	"debug/elf"
	"path/filepath"
	"slices"
	"sync"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/locate"
)

// Namer names addresses; it loads each DSO's symbols once, on first use.
type Namer struct {
	buildIDs map[string]string // recorded, by DSO path
	// DebugDir and CacheDir are /usr/lib/debug and ~/.debug.
	DebugDir, CacheDir string
	// KallsymsPath is /proc/kallsyms, NotesPath /sys/kernel/notes (the
	// running kernel's build id).
	KallsymsPath, NotesPath string

	mu   sync.Mutex
	dsos map[string]*entry
}

// entry is one DSO's symbols, loaded once (maybe in the background).
type entry struct {
	done chan struct{}
	t    *table
}

// New returns a Namer for a recording with these build ids (DSO path →
// hex id).
func New(buildIDs map[string]string) *Namer {
	return &Namer{buildIDs: buildIDs, DebugDir: "/usr/lib/debug", CacheDir: locate.PerfCacheDir(),
		KallsymsPath: "/proc/kallsyms", NotesPath: "/sys/kernel/notes", dsos: map[string]*entry{}}
}

// Name returns the symbol perf names at addr of the DSO at path (file
// offset), or of the kernel (absolute address), or "".
func (n *Namer) Name(path string, kernel bool, addr uint64) string {
	e, load := n.entry(path, kernel)
	if load != nil {
		e.t = load()
		close(e.done)
	}
	<-e.done
	return e.t.find(addr)
}

// Prefetch loads the symbols of a DSO (or of the kernel) in the
// background, so that they are ready when Name is first asked: the
// reader calls it when a mapping appears.
func (n *Namer) Prefetch(path string, kernel bool) {
	e, load := n.entry(path, kernel)
	if load != nil {
		go func() {
			e.t = load()
			close(e.done)
		}()
	}
}

// entry returns the DSO's entry and, when it is new, the function that
// loads it (with the build id known now: the caller's map grows as
// records are read).
func (n *Namer) entry(path string, kernel bool) (*entry, func() *table) {
	key := path
	if kernel {
		key = "[kernel.kallsyms]"
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if e := n.dsos[key]; e != nil {
		return e, nil
	}
	e := &entry{done: make(chan struct{})}
	n.dsos[key] = e
	id := n.buildIDs[key]
	if kernel {
		return e, func() *table { return n.loadKernel(id) }
	}
	return e, func() *table { return n.loadDSO(path, id) }
}

// sym is one symbol: [start, end) in file offsets (or kernel addresses).
// Its name is in its table's names: a table of a hundred thousand kernel
// symbols is then two allocations without pointers, which the garbage
// collector need not scan.
type sym struct {
	start, end    uint64
	name, nameLen uint32 // the name is names[name : name+nameLen]
	bind          elf.SymBind
}

type table struct {
	syms  []sym
	names []byte // the symbols' names, one after another
}

// add adds a symbol. The slices double when full (append grows large
// slices by a quarter: many more copies for a table read whole).
func add[N string | []byte](t *table, start, end uint64, name N, bind elf.SymBind) {
	if len(t.syms) == cap(t.syms) {
		t.syms = slices.Grow(t.syms, len(t.syms)+64)
	}
	if cap(t.names)-len(t.names) < len(name) {
		t.names = slices.Grow(t.names, len(t.names)+len(name)+1024)
	}
	t.syms = append(t.syms, sym{start: start, end: end, name: uint32(len(t.names)), nameLen: uint32(len(name)), bind: bind})
	t.names = append(t.names, name...)
}

// nameOf returns the bytes of s's name.
func (t *table) nameOf(s sym) []byte { return t.names[s.name : s.name+s.nameLen] }

// find is perf's symbols__find: the symbol holding addr (a symbol of no
// size holds its start).
func (t *table) find(addr uint64) string {
	i, _ := slices.BinarySearchFunc(t.syms, addr, func(s sym, a uint64) int { return cmp.Compare(s.start, a+1) })
	if i == 0 {
		return ""
	}
	s := t.syms[i-1]
	if addr < s.end || addr == s.start {
		return string(t.nameOf(s))
	}
	return ""
}

// finish sorts the symbols (stable: perf's tree keeps equal starts in
// insertion order), keeps the best of each start and extends symbols of
// no size to the next one (perf's symbols__fixup_duplicate and
// symbols__fixup_end).
//
// Without dedup (kallsyms, where perf keeps every alias), the last of
// equal starts is the one found: the others get no size.
func (t *table) finish(dedup bool) *table {
	byStart := func(a, b sym) int { return cmp.Compare(a.start, b.start) }
	if !slices.IsSortedFunc(t.syms, byStart) { // kallsyms mostly is
		slices.SortStableFunc(t.syms, byStart)
	}
	out := t.syms[:0]
	for _, s := range t.syms {
		if k := len(out) - 1; k >= 0 && out[k].start == s.start {
			if !dedup || t.better(s, out[k]) {
				out[k] = s
			}
			continue
		}
		out = append(out, s)
	}
	for i := range out {
		if out[i].end != out[i].start {
			continue
		}
		if i+1 < len(out) {
			out[i].end = out[i+1].start
		} else {
			out[i].end = (out[i].start+4095)&^4095 + 4096
		}
	}
	t.syms = out
	return t
}

// better is perf's choose_best_symbol: b (earlier) wins ties. Prefer a
// symbol with a size, then not weak, then global, then fewer leading
// underscores, then the longer name.
func (t *table) better(a, b sym) bool {
	if sa, sb := a.end > a.start, b.end > b.start; sa != sb {
		return sa
	}
	if wa, wb := a.bind == elf.STB_WEAK, b.bind == elf.STB_WEAK; wa != wb {
		return wb
	}
	if ga, gb := a.bind == elf.STB_GLOBAL, b.bind == elf.STB_GLOBAL; ga != gb {
		return ga
	}
	if ua, ub := underscores(t.nameOf(a)), underscores(t.nameOf(b)); ua != ub {
		return ua < ub
	}
	return a.nameLen > b.nameLen
}

func underscores(s []byte) int { return len(s) - len(bytes.TrimLeft(s, "_")) }

// loadDSO reads the symbols of a DSO: the first file with a .symtab among
// perf's candidates, else the DSO's dynamic symbols; and its PLT stubs.
func (n *Namer) loadDSO(path, recordedID string) *table {
	t := &table{}
	runtime, id := n.openMatching(path, recordedID)
	if runtime == nil {
		return t
	}
	defer runtime.Close()
	syms, execSections := n.symtab(path, id)
	if syms == nil {
		syms, _ = runtime.ELF().DynamicSymbols()
		execSections = execSectionsOf(runtime.ELF())
	}
	progs := runtime.ELF().Progs
	for _, s := range syms {
		if !isFunction(s) && !isLabel(s, execSections) {
			continue
		}
		if off, ok := fileOffset(progs, s.Value); ok {
			add(t, off, off+s.Size, s.Name, elf.ST_BIND(s.Info))
		}
	}
	for _, s := range pltSymbols(runtime.ELF()) {
		if off, ok := fileOffset(progs, s.start); ok {
			add(t, off, off+(s.end-s.start), s.name, elf.STB_GLOBAL)
		}
	}
	return t.finish(true)
}

// fileOffset maps a symbol's address to the file offset of the PT_LOAD
// holding it (perf adjusts user symbols so).
func fileOffset(progs []*elf.Prog, v uint64) (uint64, bool) {
	for _, p := range progs {
		if p.Type == elf.PT_LOAD && v >= p.Vaddr && v < p.Vaddr+p.Memsz {
			return v - p.Vaddr + p.Off, true
		}
	}
	return 0, false
}

// openMatching opens the DSO, or its copy in perf's build-id cache, when
// its build id is the recorded one (or none was recorded).
func (n *Namer) openMatching(path, id string) (*binary.File, string) {
	for _, p := range []string{path, n.cachePath(path, id, "elf"), n.cachePath(path, id, "vdso")} {
		if p == "" {
			continue
		}
		f, err := binary.Open(p, binary.Options{})
		if err != nil {
			continue
		}
		if id == "" {
			// perf reads the build id of the file when none was recorded
			return f, f.BuildIDHex()
		}
		if f.BuildIDHex() == id {
			return f, id
		}
		f.Close()
	}
	return nil, ""
}

func (n *Namer) cachePath(path, id, file string) string {
	if id == "" || n.CacheDir == "" {
		return ""
	}
	return filepath.Join(n.CacheDir, path, id, file)
}

// isFunction is perf's elf_sym__is_function.
func isFunction(s elf.Symbol) bool {
	typ := elf.ST_TYPE(s.Info)
	return (typ == elf.STT_FUNC || typ == elf.STT_GNU_IFUNC) && s.Name != "" && s.Section != elf.SHN_UNDEF
}

// isLabel is perf's elf_sym__is_label in an executable section: a named
// symbol of no type, visible (_dl_start_user of ld.so is one).
func isLabel(s elf.Symbol, exec map[elf.SectionIndex]bool) bool {
	vis := elf.ST_VISIBILITY(s.Other)
	return elf.ST_TYPE(s.Info) == elf.STT_NOTYPE && s.Name != "" && s.Section != elf.SHN_UNDEF && s.Section != elf.SHN_ABS &&
		vis != elf.STV_HIDDEN && vis != elf.STV_INTERNAL && exec[s.Section]
}

// execSectionsOf lists the indexes of the executable sections.
func execSectionsOf(f *elf.File) map[elf.SectionIndex]bool {
	m := map[elf.SectionIndex]bool{}
	for i, s := range f.Sections {
		if s.Flags&elf.SHF_EXECINSTR != 0 {
			m[elf.SectionIndex(i)] = true
		}
	}
	return m
}

// symtab returns the .symtab of the first debug file perf would read and
// its executable sections, or nil.
func (n *Namer) symtab(path, id string) ([]elf.Symbol, map[elf.SectionIndex]bool) {
	var candidates []string
	if id != "" && len(id) > 2 {
		candidates = append(candidates, n.cachePath(path, id, "debug"),
			filepath.Join(n.DebugDir, ".build-id", id[:2], id[2:]+".debug"))
	}
	candidates = append(candidates, path)
	for _, p := range candidates {
		f, err := binary.Open(p, binary.Options{})
		if err != nil {
			continue
		}
		syms, _ := f.ELF().Symbols()
		exec := execSectionsOf(f.ELF())
		match := f.BuildIDHex() == id
		f.Close()
		if match && len(syms) > 0 {
			return syms, exec
		}
	}
	return nil, nil
}
