package driver

import (
	"cmp"
	"debug/dwarf"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
	"github.com/profgen/profgen/internal/propeller"
)

// The row of outputTable for Propeller (package propeller): from LBR
// counters, a cc profile and an ld profile per binary.

// The names of the two files, as Propeller's documentation calls them.
const (
	propellerCC = "cc_profile.txt"
	propellerLD = "ld_profile.txt"
)

// PropellerOptions are the flags of --format=propeller.
type PropellerOptions struct {
	// CCVersion is the cc profile's format: v1 (clang 18 and later, the
	// default) or v0.
	CCVersion string
	// Edges adds the block and edge counts (g lines; v1 only: clang 22
	// reads them, clang 19 aborts on them).
	Edges bool
}

// partPath names one part of a binary's files, one binary of nbins: in
// a directory DIR/cc_profile.txt (DIR/<binary>.cc_profile.txt with
// several binaries), else PREFIX.cc_profile.txt, %b in PREFIX being the
// binary's base name.
func partPath(out, binary, part string, nbins int) (string, error) {
	base := filepath.Base(binary)
	switch {
	case strings.Contains(out, "%b"):
		return strings.ReplaceAll(out, "%b", base) + "." + part, nil
	case namesDirectory(out) && nbins == 1:
		return filepath.Join(out, part), nil
	case namesDirectory(out):
		return filepath.Join(out, base+"."+part), nil
	case nbins == 1:
		return out + "." + part, nil
	}
	return "", usagef("%d binaries need one output each: make -o a directory or a pattern with %%b", nbins)
}

// lbrPropeller is, for each binary with samples, its cc and ld profiles.
// With several binaries, one without an address map or without a sampled
// block in it is passed over with a warning.
func lbrPropeller(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	var files []profileFile
	for i, c := range in.lbr {
		if c.used(o) == 0 && len(in.lbr) > 1 {
			continue // said in the summary
		}
		prof, err := propellerProfile(o, bins, i, c)
		if err != nil && len(in.lbr) > 1 && (errors.Is(err, bbaddrmap.ErrNoMap) || errors.Is(err, propeller.ErrNoHotFunction)) {
			fmt.Fprintf(o.Stderr, "profgen: warning: %v: no Propeller profile of it\n", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		files = append(files, propellerFiles(o, i, prof)...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: %w: no sampled binary has a %s", o.src.name(), ErrNoSamples, bbaddrmap.Section)
	}
	return files, nil
}

// propellerProfile is the profile of binary i, checked against its map.
func propellerProfile(o *output, bins *binaries, i int, c lbrCounts) (*propeller.Profile, error) {
	f := bins.files[i]
	funcs, err := bbaddrmap.Read(f.ELF())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	prof, err := propeller.Build(funcs, f.FuncSymbols(), c.counters, compileUnits(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if err := propeller.Validate(prof, funcs, f.FuncSymbols()); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if prof.Ambiguous > 0 {
		fmt.Fprintf(o.Stderr, "profgen: warning: Propeller: %s%d sampled functions share their name with another function (static functions of two files) and no compile unit in the DWARF (-gmlt) tells them apart: left out\n",
			binaryPrefix(bins, f), prof.Ambiguous)
	}
	return prof, nil
}

// propellerFiles are the cc and ld profiles of binary i.
func propellerFiles(o *output, i int, prof *propeller.Profile) []profileFile {
	version, _ := propeller.ParseCCVersion(o.propeller.CCVersion) // checked by validatePropeller
	opts := propeller.CCOptions{Version: version, Edges: o.propeller.Edges}
	return []profileFile{
		{bin: i, part: 0, write: func(w io.Writer) error { return propeller.WriteCC(w, prof, opts) }},
		{bin: i, part: 1, write: func(w io.Writer) error { return propeller.WriteLD(w, prof) }},
	}
}

// refuseStacksPropeller refuses call stacks: Propeller lays out blocks
// by the branches between them.
func refuseStacksPropeller(o *output) error {
	return fmt.Errorf("%s holds call stacks without branch stacks: --format=propeller needs LBR (perf record -b)", o.src.name())
}

// validatePropeller refuses Propeller's flags without a Propeller output,
// an unknown cc version, and standard output (two files).
func validatePropeller(o *output) error {
	if o.format != formatPropeller {
		return nil
	}
	v, err := propeller.ParseCCVersion(o.propeller.CCVersion)
	switch {
	case err != nil:
		return usagef("--propeller-cc-version: %v", err)
	case o.propeller.Edges && v == propeller.CCv0:
		return usagef("--propeller-edges: the cc profile's v0 has no edge counts")
	case o.path == "-":
		return usagef("--format=propeller writes two files: make -o a directory or a prefix, not -")
	}
	return nil
}

// unitRange is an address range of a compile unit.
type unitRange struct {
	lo, hi uint64
	name   string
}

// compileUnits gives the name of the compile unit at an address of f, as
// clang matches it to an m line (DW_AT_name without a leading ./), read
// from f's DWARF when first asked; "" where there is none.
func compileUnits(f *binary.File) func(uint64) string {
	var once sync.Once
	var units []unitRange
	return func(addr uint64) string {
		once.Do(func() { units = unitRanges(f) })
		i, _ := slices.BinarySearchFunc(units, addr+1, func(u unitRange, a uint64) int { return cmp.Compare(u.lo, a) })
		if i > 0 && addr < units[i-1].hi {
			return units[i-1].name
		}
		return ""
	}
}

// unitRanges are the address ranges of f's compile units, by address.
func unitRanges(f *binary.File) []unitRange {
	d, err := f.DWARF()
	if err != nil {
		return nil
	}
	var units []unitRange
	r := d.Reader()
	for e, err := r.Next(); e != nil && err == nil; e, err = r.Next() {
		if e.Tag == dwarf.TagCompileUnit {
			units = append(units, rangesOf(d, e)...)
		}
		r.SkipChildren()
	}
	slices.SortFunc(units, func(a, b unitRange) int { return cmp.Compare(a.lo, b.lo) })
	return units
}

// rangesOf are the ranges of the compile unit e.
func rangesOf(d *dwarf.Data, e *dwarf.Entry) []unitRange {
	name, _ := e.Val(dwarf.AttrName).(string)
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	rs, _ := d.Ranges(e)
	units := make([]unitRange, 0, len(rs))
	for _, r := range rs {
		units = append(units, unitRange{lo: r[0], hi: r[1], name: name})
	}
	return units
}
