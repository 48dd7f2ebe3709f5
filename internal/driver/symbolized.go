package driver

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"io"
	"iter"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// SymbolizableBinary is what profile generation needs of the binary beyond
// Binary: its instructions and its debug information.
type SymbolizableBinary interface {
	Binary
	Insts(first, last uint64) iter.Seq[binary.Inst]
	DWARF() (*dwarf.Data, error)
	ELF() *elf.File
	FuncSymbols() []binary.Symbol
}

// writeSampleProfile symbolizes the counters into an LLVM sample profile
// and writes it in opts.Format.
func writeSampleProfile(opts Options, counters *aggregate.Counters) error {
	format, err := sampleprof.ParseFormat(opts.Format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	bin, ok := opts.Binary.(SymbolizableBinary)
	if !ok {
		return fmt.Errorf("%s: symbolization needs an ELF binary: %w", opts.Binary.Path(), ErrNotImplemented)
	}
	prof, err := generateProfile(bin, counters)
	if err != nil {
		return err
	}
	return writeOutput(opts.Output, func(w io.Writer) error {
		return sampleprof.WriteOptions{UseMD5: opts.UseMD5}.Write(w, prof, format)
	})
}

// generateProfile turns LBR counters into a sample profile, as
// llvm-profgen does for profiles without context.
func generateProfile(bin SymbolizableBinary, c *aggregate.Counters) (*sampleprof.Profile, error) {
	d, err := bin.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: debug info: %w", bin.Path(), err)
	}
	sym, err := symbolize.New(d, symbolize.Options{PreferredBase: bin.PreferredBase()})
	if err != nil {
		return nil, fmt.Errorf("%s: debug info: %w", bin.Path(), err)
	}
	sym.MarkEntries(codeSymbols(bin.FuncSymbols()))
	fs := definesSymbol(bin.ELF(), generate.FSDiscriminatorSymbol)
	prof := generate.Profile(*c, instSizes{bin}, sym, generate.Options{FSDiscriminators: fs})
	prof.FSDiscriminators = fs
	return prof, nil
}

// instSizes adapts the binary's instruction walk to the generator's.
type instSizes struct{ bin SymbolizableBinary }

func (c instSizes) Insts(first, last uint64) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		for in := range c.bin.Insts(first, last) {
			if !yield(in.Addr, uint64(in.Size)) {
				return
			}
		}
	}
}

// codeSymbols converts the binary's function symbols for the symbolizer.
func codeSymbols(syms []binary.Symbol) []symbolize.Symbol {
	out := make([]symbolize.Symbol, len(syms))
	for i, s := range syms {
		out[i] = symbolize.Symbol{Addr: s.Addr, Name: s.Name}
	}
	return out
}

func definesSymbol(f *elf.File, name string) bool {
	syms, _ := f.Symbols()
	for _, s := range syms {
		if s.Name == name {
			return true
		}
	}
	return false
}
