package driver

import (
	"debug/elf"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// showListing is --show-disassembly-only: the disassembly of each binary
// on Stdout, as llvm-profgen-19 prints it, and no input read. The binary
// package prints the instructions; the inline stacks (from symbolize)
// and the pseudo probes are combined here.
func showListing(p *plan, bins *binaries) error {
	for i, f := range bins.files {
		lo := binary.ListingOptions{Functions: p.LLVM.DisassembleFunctions, IntelSyntax: p.LLVM.IntelSyntax}
		if p.LLVM.ShowCanonicalFuncName {
			lo.Name = symbolize.CanonicalName
		}
		var sym *symbolize.Table
		if p.LLVM.ShowSourceLocations || p.ShowPseudoProbe && len(p.LLVM.DisassembleFunctions) > 0 {
			sym = bins.listingSymbolizer(i)
		}
		if p.ShowPseudoProbe && usesProbes(p, f) {
			before, err := listingProbes(p, f, sym)
			if err != nil {
				return err
			}
			lo.Before = before
		}
		if p.LLVM.ShowSourceLocations {
			lo.Location = sourceLocation(sym, p.LLVM.ShowCanonicalFuncName, p.ShowPseudoProbe)
		}
		if _, err := f.DWARF(); err != nil {
			fmt.Fprintln(p.Stderr, "warning: Loading of DWARF info completed, but no binary functions have been retrieved.")
		} else if sym == nil {
			bins.symbolizer(i) // llvm's warnings about split units not found, as it loads the DWARF
		}
		stats, err := f.WriteListing(p.Stdout, lo)
		if err != nil {
			return err
		}
		if stats.InvalidRanges > 0 {
			fmt.Fprintf(p.Stderr, "warning: Found %d invalid instructions\n", stats.InvalidRanges)
		}
	}
	return nil
}

// usesProbes is llvm-profgen's checkPseudoProbe for one binary.
func usesProbes(p *plan, f *binary.File) bool {
	return !p.UseDwarfCorrelation && pseudoprobe.In(f.ELF())
}

// listingSymbolizer is binary i's symbolizer, or an empty table when it
// has no DWARF: llvm-profgen then prints no source locations.
func (b *binaries) listingSymbolizer(i int) *symbolize.Table {
	if _, err := b.files[i].DWARF(); err != nil {
		return new(symbolize.Table)
	}
	t, err := b.symbolizer(i)
	if err != nil {
		return new(symbolize.Table)
	}
	return t
}

// sourceLocation returns the inline stack of an address as llvm-profgen
// prints it after an instruction: innermost frame first, "name:offset"
// or "name:offset.discriminator" joined by " @ ", the offset from the
// function's start line (with probes, the probe index the discriminator
// encodes, and no discriminator).
func sourceLocation(sym *symbolize.Table, canonical, probes bool) func(uint64) string {
	var frames []symbolize.Frame
	return func(addr uint64) string {
		frames = sym.Frames(addr, frames)
		var parts []string
		for _, fr := range frames { // outermost first, up to a frame without a name
			if fr.Func == "" {
				break
			}
			name := fr.Func
			if canonical {
				name = symbolize.CanonicalName(name)
			}
			offset, disc := fr.LineOffset(), fr.Discriminator
			if probes {
				offset, disc = disc>>3&0xffff, 0
			}
			site := name + ":" + strconv.FormatUint(uint64(offset), 10)
			if disc > 0 {
				site += "." + strconv.FormatUint(uint64(disc), 10)
			}
			parts = append(parts, site)
		}
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		return strings.Join(parts, " @ ")
	}
}

// listingProbes decodes the probes of the binary as llvm-profgen does
// for a listing (every function's, each record placed at the symbol its
// GUID names; with --disassemble-functions only those functions'),
// prints the descriptors on Stdout, and returns the lines printed before
// each instruction.
func listingProbes(run *plan, f *binary.File, sym *symbolize.Table) (func(uint64) string, error) {
	descData, probeData, err := pseudoprobe.Sections(f.ELF())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	descs, err := pseudoprobe.DecodeDescs(descData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	starts, keep, err := probeStarts(f, run.LLVM.DisassembleFunctions, sym)
	if err != nil {
		return nil, err
	}
	table, err := pseudoprobe.Decode(probeData, pseudoprobe.Options{
		FuncStart: func(g uint64) (uint64, bool) { a, ok := starts[g]; return a, ok },
		Keep:      keep,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if err := descs.Print(run.Stdout); err != nil {
		return nil, err
	}
	return func(addr uint64) string {
		var b strings.Builder
		for _, p := range table.At(addr) {
			b.WriteString(descs.FormatProbe(&p))
			b.WriteByte('\n')
		}
		return b.String()
	}, nil
}

// probeStarts are the start addresses of probe records by GUID (the MD5
// of a symbol's name; of several symbols of one name the last in
// .symtab) and, with a function list, the records kept: those of the
// DWARF functions starting at the listed symbols (llvm-profgen's
// decodePseudoProbe in --show-disassembly-only).
func probeStarts(f *binary.File, only []string, sym *symbolize.Table) (map[uint64]uint64, func(uint64) bool, error) {
	syms, err := f.ELF().Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, nil, fmt.Errorf("%s: symbols: %w", f.Path(), err)
	}
	all := make(map[uint64]uint64, len(syms))
	for _, s := range syms {
		all[sampleprof.MD5Name(s.Name)] = s.Value
	}
	if len(only) == 0 {
		return all, nil, nil
	}
	starts, kept := map[uint64]uint64{}, map[uint64]bool{}
	for _, name := range only {
		g := sampleprof.MD5Name(name)
		addr, ok := all[g]
		if !ok || addr == 0 {
			continue
		}
		starts[g] = addr
		if r := sym.FuncRangeStartingAt(addr); r != nil {
			kept[sampleprof.MD5Name(r.Func.Name)] = true
		}
	}
	return starts, func(g uint64) bool { return kept[g] }, nil
}
