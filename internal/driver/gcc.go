package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// The GCC AutoFDO column of outputTable (--format=gcc, docs/gcc.md): the
// LLVM rows' profiles, written by sampleprof.WriteGCC. Hybrid samples are
// made flat (withGCCDefaults), as --ignore-stack-samples makes them, and a
// binary with pseudo probes is read by its lines (lbrProfile): GCC's
// profile keys are lines.

// GCCOptions are the choices of --format=gcc.
type GCCOptions struct {
	// Version is the AutoFDO version written: sampleprof.GCCVersion2
	// (GCC 12 to 15; the default when 0) or GCCVersion3 (GCC 16).
	Version uint32
	// FoldDiscriminators writes one count per line; nil decides by the
	// binary's compiler (gccFolds).
	FoldDiscriminators *bool
	// ZerosAsOne writes the zero counts of hot instances as 1; nil: for
	// version 2 (gccZerosAsOne).
	ZerosAsOne *bool
}

// validateGCC refuses what --format=gcc cannot write, before any input.
func validateGCC(o *output) error {
	if o.format != formatGCC {
		return nil // GCC's flags without a GCC output: validateOutputs
	}
	switch v := o.gcc.Version; {
	case v != sampleprof.GCCVersion2 && v != sampleprof.GCCVersion3:
		return usagef("--gcov-version: %d is neither 2 (GCC 12 to 15) nor 3 (GCC 16)", v)
	case o.useMD5:
		return usagef("--use-md5 applies to extbinary: GCC matches functions by name")
	}
	return nil
}

// gccOf is the GCC form of an LLVM row: the profiles build makes, each
// written by the GCC writer.
func gccOf(build func(*output, *binaries, *profileInput) ([]profileFile, error)) func(*output, *binaries, *profileInput) ([]profileFile, error) {
	return func(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
		files, err := build(o, bins, in)
		if err != nil {
			return nil, err
		}
		for i := range files {
			files[i].write = gccWriter(o.gcc, bins, files[i])
		}
		return files, nil
	}
}

// gccWriter writes the profile of f as GCC AutoFDO.
func gccWriter(g GCCOptions, bins *binaries, f profileFile) func(io.Writer) error {
	o := sampleprof.GCCOptions{Version: g.Version}
	o.FoldDiscriminators = gccFolds(g, o.Version, bins.files[f.bin])
	o.ZerosAsOne = gccZerosAsOne(g, o.Version)
	prof := f.profile
	if o.Version == sampleprof.GCCVersion3 {
		prof = withSourceFiles(prof, bins, f.bin)
	}
	return func(w io.Writer) error { return sampleprof.WriteGCC(w, prof, o) }
}

// gccFolds decides whether discriminators are folded: as asked, else for
// version 2 unless the binary was built by GCC 13 or later. GCC 12 drops
// discriminators when it reads (the last entry of a line wins, a call
// site with one never matches); GCC 13 on key their counts by them; the
// discriminators of another compiler (clang's encoding) mean nothing to
// GCC. Version 3 (GCC 16) keeps them.
func gccFolds(o GCCOptions, version uint32, bin Binary) bool {
	if o.FoldDiscriminators != nil {
		return *o.FoldDiscriminators
	}
	if version != sampleprof.GCCVersion2 {
		return false
	}
	c := bin.Compiler()
	return c.Name != "gcc" || c.Major < 13
}

// gccZerosAsOne decides whether the zero counts of the instances GCC 12
// finds hot are written as 1: as asked, else for version 2. gcc-12 divides
// by such a zero when it vectorizes a loop with an epilogue and crashes
// (sampleprof.GCCOptions.ZerosAsOne, docs/gcc.md); to it 1 is as cold
// as 0. Version 3 (GCC 16) keeps them.
func gccZerosAsOne(o GCCOptions, version uint32) bool {
	if o.ZerosAsOne != nil {
		return *o.ZerosAsOne
	}
	return version == sampleprof.GCCVersion2
}

// plainDiscriminators reports whether binary i's discriminators go into
// the profile as they are: those of a GCC-built binary written for GCC.
// GCC's discriminators are plain numbers, not LLVM's packed base,
// duplication factor and copy id.
func (b *binaries) plainDiscriminators(i int) bool {
	return b.gccOutput && b.files[i].Compiler().Name == "gcc"
}

// withSourceFiles is prof with the source file (DW_AT_decl_file) of each
// of its functions that binary bin's DWARF places, for version 3.
func withSourceFiles(prof *sampleprof.Profile, bins *binaries, bin int) *sampleprof.Profile {
	sym, err := bins.symbolizer(bin)
	if err != nil {
		return prof
	}
	files := sourceFiles(sym, prof)
	if len(files) == 0 {
		return prof
	}
	out := *prof
	out.SourceFiles = files
	return &out
}

// sourceFiles maps each function of prof with code in sym to its file.
func sourceFiles(sym *symbolize.Table, prof *sampleprof.Profile) map[string]string {
	files := map[string]string{}
	var frames []symbolize.Frame
	for _, fn := range sym.Functions() {
		if _, ok := prof.Functions[fn.Name]; !ok || len(fn.Ranges) == 0 {
			continue
		}
		frames = sym.Frames(fn.Ranges[0][0], frames[:0])
		if len(frames) > 0 && frames[0].Func == fn.Name && frames[0].File != "" {
			files[fn.Name] = frames[0].File
		}
	}
	return files
}

// refuseGCCProbes refuses contexts of pseudo probes: GCC's profile keys
// are source lines.
func refuseGCCProbes(o *output) error {
	return fmt.Errorf("%s holds contexts of pseudo probes: --format=gcc needs source lines", o.src.name())
}
