package binary

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/profgen/profgen/internal/inflate"
	"github.com/profgen/profgen/internal/mmapfile"
)

// Options tune Open.
type Options struct {
	// DebugPath names a file holding the binary's DWARF (for example made by
	// objcopy --only-keep-debug). Empty: the DWARF of the binary itself.
	DebugPath string
	// Name is the path the binary is known by (Path), when the file opened
	// is a copy found elsewhere (a build-id cache, a debuginfod download):
	// the path perf recorded for it. Empty: the path opened.
	Name string
}

// File is an opened ELF executable, or PE image read as one (pe.go). Its
// methods are safe for concurrent use.
type File struct {
	path      string
	debugPath string
	elf       *elf.File
	coff      bool // a PE image: elf is its ELF view
	closeMu   sync.Mutex
	closers   []io.Closer

	layout  layout
	buildID []byte
	funcs   []Symbol
	plt     []Symbol // PLT stubs, name@plt
	code    *codeIndex

	dwarfOnce sync.Once
	dwarf     *dwarf.Data
	dwarfErr  error

	// goText and goFunc are runtime.text and go:func.*, which place a Go
	// binary's pclntab (GoLines).
	goText, goFunc uint64
	goLinesOnce    sync.Once
	goLines        *GoLines
	goLinesErr     error

	sectionsOnce sync.Once
	sections     *Sections // the file holding the DWARF, for DWARF and DWARFSection
	sectionsErr  error

	dataOnce sync.Once
	data     []Symbol // data symbols by address (DataSymbolAt)
}

// ErrNoExecSegment is returned by Open for an ELF file without an
// executable PT_LOAD segment (llvm-profgen: "no executable segment found").
var ErrNoExecSegment = errors.New("no executable segment found")

// Open opens the ELF file, or PE image, at path. The returned File keeps
// the file open (code is read lazily) until Close.
func Open(path string, opts Options) (*File, error) {
	if opts.DebugPath != "" {
		if _, err := os.Stat(opts.DebugPath); err != nil {
			return nil, fmt.Errorf("debug file: %w", err)
		}
	}
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	name := path
	if opts.Name != "" {
		name = opts.Name
	}
	f, err := NewFile(sizedReaderAt{osf, fileSize(osf)}, name, opts)
	if err != nil {
		osf.Close()
		return nil, err
	}
	f.closers = append(f.closers, osf)
	f.mapImage(osf)
	return f, nil
}

// mapImage maps the whole file into memory, for code to be read from it
// without copies or read system calls. A file that cannot be mapped is
// read as before.
func (f *File) mapImage(osf *os.File) {
	image, err := mmapfile.Map(osf)
	if err != nil {
		return
	}
	f.code.image = image
	f.closers = append(f.closers, unmapper(image))
}

// NewFile reads an ELF file, or a PE image, from r; path is used in
// messages and by Path.
// r must stay readable until the File is no longer used. When r has a
// Size() int64 method (bytes.Reader, io.SectionReader), sections claiming
// to extend past that size are not decoded.
func NewFile(r io.ReaderAt, path string, opts Options) (*File, error) {
	size := readerSize(r)
	ef, l, err := openImage(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &File{path: path, debugPath: opts.DebugPath, elf: ef, layout: l, coff: IsPE(r)}
	if err := f.load(size); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// readerSize is r's Size(), or -1 when it has none.
func readerSize(r io.ReaderAt) int64 {
	if s, ok := r.(interface{ Size() int64 }); ok {
		return s.Size()
	}
	return -1
}

// openImage reads the ELF file, or the PE image (pe.go), in r of size
// bytes (< 0: unknown), with the layout of its code.
func openImage(r io.ReaderAt, size int64) (*elf.File, layout, error) {
	if IsPE(r) {
		ef, img, err := openPE(r, size)
		if err != nil {
			return nil, layout{}, err
		}
		l, err := img.layout()
		return ef, l, err
	}
	ef, err := openELF(r, size)
	if err != nil {
		return nil, layout{}, err
	}
	l, err := readLayout(ef.Progs)
	return ef, l, err
}

// openELFOrPE reads the ELF file, or the ELF view of the PE image, in r
// for its sections (DWARF): the file need not hold code.
func openELFOrPE(r io.ReaderAt, size int64) (*elf.File, error) {
	if IsPE(r) {
		ef, _, err := openPE(r, size)
		return ef, err
	}
	return openELF(r, size)
}

// openELF reads the ELF file in r, refusing compressed sections that
// would inflate past the limit.
func openELF(r io.ReaderAt, size int64) (*elf.File, error) {
	ef, err := elf.NewFile(r)
	if err != nil {
		return nil, explainELF(r, size, err)
	}
	if err := CheckCompressed(ef); err != nil {
		return nil, err
	}
	return ef, nil
}

// sizedReaderAt gives an *os.File the Size method NewFile looks for.
type sizedReaderAt struct {
	io.ReaderAt
	size int64
}

func (r sizedReaderAt) Size() int64 { return r.size }

func fileSize(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		return -1
	}
	return st.Size()
}

func (f *File) load(fileSize int64) error {
	a, err := archOf(f.elf.Machine)
	if err != nil {
		return err
	}
	f.buildID, _ = BuildIDOf(f.elf) // nil when absent or unreadable
	syms, err := f.elf.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return fmt.Errorf("reading .symtab%s: %w", sectionAt(f.elf, ".symtab"), err)
	}
	f.funcs = funcSymbols(syms)
	f.goText, f.goFunc = goSymbols(syms)
	if len(syms) == 0 { // stripped: the dynamic symbols still name the exported functions
		dyn, _ := f.elf.DynamicSymbols()
		f.funcs = funcSymbols(dyn)
	}
	f.plt = pltSymbols(f.elf)
	f.code = newCodeIndex(f.elf, a, syms, fileSize)
	return nil
}

// addCloser registers c for Close.
func (f *File) addCloser(c io.Closer) {
	f.closeMu.Lock()
	defer f.closeMu.Unlock()
	f.closers = append(f.closers, c)
}

// Close closes the files Open opened.
func (f *File) Close() error {
	f.closeMu.Lock()
	defer f.closeMu.Unlock()
	var first error
	for _, c := range f.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	f.closers = nil
	return first
}

// Path is the path the File was opened with.
func (f *File) Path() string { return f.path }

// ELF is the underlying debug/elf file: for a PE image, its ELF view.
func (f *File) ELF() *elf.File { return f.elf }

// IsCOFF reports whether the file is a PE image (llvm-profgen's COFF
// binaries): perf names it by a Windows path.
func (f *File) IsCOFF() bool { return f.coff }

// IsPIE reports whether the file is position independent (ET_DYN):
// loaded at an address chosen at run time.
func (f *File) IsPIE() bool { return f.elf.Type == elf.ET_DYN }

// BuildID is the GNU build id (the NT_GNU_BUILD_ID note), nil if absent.
func (f *File) BuildID() []byte { return f.buildID }

// BuildIDHex is BuildID in lower-case hex, as perf and readelf print it.
func (f *File) BuildIDHex() string { return fmt.Sprintf("%x", f.buildID) }

// FuncSymbols are the function symbols (STT_FUNC and STT_GNU_IFUNC with an
// address) of .symtab, or of .dynsym when there is no .symtab, sorted by
// address and then name. The slice must not be modified.
func (f *File) FuncSymbols() []Symbol { return f.funcs }

// DWARF returns the debug information: from Options.DebugPath when given,
// else from the binary. The result is loaded once and shared.
func (f *File) DWARF() (*dwarf.Data, error) {
	f.dwarfOnce.Do(func() { f.dwarf, f.dwarfErr = f.loadDWARF() })
	return f.dwarf, f.dwarfErr
}

// DWARFPath is the path of the file holding the DWARF: Options.DebugPath
// when given, else the binary's.
func (f *File) DWARFPath() string {
	if f.debugPath != "" {
		return f.debugPath
	}
	return f.path
}

// DWARFSection returns the named section of the file holding the DWARF,
// uncompressed, or nil when it has none: split DWARF reads the skeleton
// units' .debug_info, .debug_addr and .debug_ranges directly. The slice
// must not be modified, nor used after Close.
func (f *File) DWARFSection(name string) ([]byte, error) {
	s, err := f.dwarfFile()
	if err != nil {
		return nil, err
	}
	return s.Section(name)
}

// dwarfFile returns the Sections of the file holding the DWARF, opening
// it on first use.
func (f *File) dwarfFile() (*Sections, error) {
	f.sectionsOnce.Do(func() {
		f.sections, f.sectionsErr = OpenSections(f.DWARFPath())
		if f.sectionsErr == nil {
			f.addCloser(f.sections)
		}
	})
	return f.sections, f.sectionsErr
}

func (f *File) loadDWARF() (*dwarf.Data, error) {
	if f.debugPath == "" {
		if s, err := f.dwarfFile(); err == nil {
			if d := s.DWARF(); d != nil {
				return d, nil
			}
		}
		d, err := f.elf.DWARF()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		return d, nil
	}
	osf, err := os.Open(f.debugPath)
	if err != nil {
		return nil, err
	}
	ef, err := openELFOrPE(osf, fileSize(osf))
	if err != nil {
		osf.Close()
		return nil, fmt.Errorf("%s: %w", f.debugPath, err)
	}
	f.addCloser(osf)
	d, err := ef.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.debugPath, err)
	}
	return d, nil
}

// CheckCompressed refuses compressed sections (SHF_COMPRESSED, or .zdebug)
// declaring more than inflate.Limit of their stored size: debug/elf would
// inflate them whole.
func CheckCompressed(ef *elf.File) error {
	for _, s := range ef.Sections {
		size, ok := inflatedSize(s)
		if !ok {
			continue
		}
		if err := inflate.Check(size, int64(s.FileSize)); err != nil {
			return fmt.Errorf("section %s at offset %#x: %w", s.Name, s.Offset, err)
		}
	}
	return nil
}

func inflatedSize(s *elf.Section) (uint64, bool) {
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		return s.Size, true
	}
	var h [12]byte
	if !strings.HasPrefix(s.Name, ".zdebug") || s.Type == elf.SHT_NOBITS {
		return 0, false
	}
	if n, _ := s.ReadAt(h[:], 0); n != len(h) || string(h[:4]) != "ZLIB" {
		return 0, false
	}
	return binary.BigEndian.Uint64(h[4:]), true
}

// sectionAt describes where the named section lies, for messages.
func sectionAt(ef *elf.File, name string) string {
	if s := ef.Section(name); s != nil {
		return fmt.Sprintf(" at offset %#x (%d bytes)", s.Offset, s.FileSize)
	}
	return ""
}
