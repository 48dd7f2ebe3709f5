package binary

import (
	"bufio"
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// ListingOptions say what WriteListing prints beside the instructions.
type ListingOptions struct {
	// Functions, when not empty, are the only symbols whose code is
	// printed, by the name printed (--disassemble-functions).
	Functions []string
	// Name is the name printed for a symbol (--show-canonical-fname
	// canonicalizes it); nil: the symbol's name.
	Name func(symbol string) string
	// Before returns lines printed before the instruction at addr, each
	// with its newline (--show-pseudo-probe: the probes there); nil: none.
	Before func(addr uint64) string
	// Location returns the text printed after the instruction at addr,
	// from column 40 (--show-source-locations); nil: nothing.
	Location func(addr uint64) string
	// IntelSyntax prints x86 instructions in Intel syntax
	// (--x86-asm-syntax=intel) rather than AT&T; other architectures
	// have one syntax.
	IntelSyntax bool
}

// ListingStats is what WriteListing found besides what it printed.
type ListingStats struct {
	// InvalidRanges counts the distinct runs of bytes that do not decode
	// inside a symbol's range, over every symbol, printed or not
	// (llvm-profgen warns "Found N invalid instructions").
	InvalidRanges int
}

// WriteListing prints the disassembly of the binary as llvm-profgen-19
// --show-disassembly-only does (ProfiledBinary::disassemble): per
// executable section a header, then per symbol of the section, in address
// then name order, "<name>:" and the instructions from its address to the
// next symbol's, each as "%8x:" and LLVM's text of it ("\t<unknown>" for
// bytes that do not decode), a blank line after each symbol. The
// instructions are those IsCode walks; the .plt section gets its header
// only. Unlike llvm-profgen, nothing is decoded past the end of a section.
func (f *File) WriteListing(w io.Writer, opts ListingOptions) (ListingStats, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "\nDisassembly of %s:\n", f.path)
	syms, err := f.elf.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return ListingStats{}, fmt.Errorf("%s: reading .symtab: %w", f.path, err)
	}
	bySec := sectionSymbols(f.elf, syms)
	l := lister{f: f, w: bw, opts: opts, text: f.code.arch.text, only: map[string]bool{}, invalid: map[[2]uint64]bool{}}
	if opts.IntelSyntax && f.code.arch.intelText != nil {
		l.text = f.code.arch.intelText
	}
	for _, name := range opts.Functions {
		l.only[name] = true
	}
	for i, sec := range f.elf.Sections {
		if sec.Flags&elf.SHF_EXECINSTR == 0 || sec.Size == 0 {
			continue
		}
		fmt.Fprintf(bw, "\nDisassembly of section %s [%#x, %#x]:\n\n", sec.Name, sec.Addr, sec.Addr+sec.Size)
		if sec.Name == ".plt" {
			continue
		}
		if err := l.section(sec, bySec[i]); err != nil {
			return ListingStats{}, err
		}
	}
	return ListingStats{InvalidRanges: len(l.invalid)}, bw.Flush()
}

// namedAddr is a symbol as llvm-profgen lists it: address and name.
type namedAddr struct {
	addr uint64
	name string
}

// sectionSymbols groups the symbols by section index, each group sorted
// by address, then name. A section symbol is named after its section, as
// LLVM names it.
func sectionSymbols(ef *elf.File, syms []elf.Symbol) map[int][]namedAddr {
	out := map[int][]namedAddr{}
	for _, s := range syms {
		i := int(s.Section)
		if i <= 0 || i >= len(ef.Sections) {
			continue
		}
		name := s.Name
		if elf.ST_TYPE(s.Info) == elf.STT_SECTION {
			name = ef.Sections[i].Name
		}
		out[i] = append(out[i], namedAddr{s.Value, name})
	}
	for _, g := range out {
		slices.SortStableFunc(g, func(a, b namedAddr) int {
			return cmp.Or(cmp.Compare(a.addr, b.addr), strings.Compare(a.name, b.name))
		})
	}
	return out
}

type lister struct {
	f       *File
	w       *bufio.Writer
	opts    ListingOptions
	text    func(b []byte, pc uint64) string // the instruction printer
	only    map[string]bool
	buf     []byte
	invalid map[[2]uint64]bool // runs of bytes that do not decode, [first, last]
}

// section lists the symbols of one section.
func (l *lister) section(sec *elf.Section, syms []namedAddr) error {
	end := sec.Addr + sec.Size
	for j, s := range syms {
		next := end
		if j+1 < len(syms) {
			next = syms[j+1].addr
		}
		name := s.name
		if l.opts.Name != nil {
			name = l.opts.Name(name)
		}
		show := len(l.only) == 0 || l.only[name]
		if show {
			fmt.Fprintf(l.w, "<%s>:\n", name)
		}
		if textSection(sec) && s.addr >= sec.Addr && s.addr < end {
			if err := l.symbol(sec, s.addr, min(next, end), show); err != nil {
				return err
			}
		}
		if show {
			l.w.WriteByte('\n')
		}
	}
	return nil
}

// symbol walks the instructions in [start, end) as decodeRange does,
// listing them when show is set, and notes the runs that do not decode.
func (l *lister) symbol(sec *elf.Section, start, end uint64, show bool) error {
	a := l.f.code.arch
	n := min(end+uint64(a.maxInstLen)-1, sec.Addr+sec.Size) - start
	l.buf = slices.Grow(l.buf[:0], int(n))[:n]
	if _, err := sec.ReadAt(l.buf, int64(start-sec.Addr)); err != nil {
		return fmt.Errorf("%s: reading section %s: %w", l.f.path, sec.Name, err)
	}
	var invalid uint64 // length of the run of invalid bytes before off
	off := uint64(0)
	for off < end-start {
		size, _, ok := a.decode(l.buf[off:])
		text := l.text(l.buf[off:], start+off)
		if show {
			l.inst(start+off, text)
		}
		// LLVM's notion of invalid: on AArch64, the words the decoder
		// takes for instructions but llvm-profgen-19 does not decode.
		ok = ok && text != unknownText
		if ok && invalid > 0 {
			l.invalid[[2]uint64{start + off - invalid, start + off - 1}] = true
			invalid = 0
		} else if !ok {
			invalid += uint64(size)
		}
		off += uint64(size)
	}
	if invalid > 0 {
		l.invalid[[2]uint64{start + off - invalid, start + off - 1}] = true
	}
	return nil
}

// unknownText is the text of bytes that do not decode.
const unknownText = "\t<unknown>"

// locationColumn is where llvm-profgen starts a source location, counted
// from the instruction's text.
const locationColumn = 40

func (l *lister) inst(addr uint64, text string) {
	if l.opts.Before != nil {
		l.w.WriteString(l.opts.Before(addr))
	}
	fmt.Fprintf(l.w, "%8x:", addr)
	l.w.WriteString(text)
	if l.opts.Location != nil {
		for i := len(text); i < locationColumn; i++ {
			l.w.WriteByte(' ')
		}
		l.w.WriteString(l.opts.Location(addr))
	}
	l.w.WriteByte('\n')
}
