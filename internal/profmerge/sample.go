package profmerge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/sampleprof"
)

// mergeSample merges sample profiles, as llvm-profdata merge --sample,
// and writes the result atomically.
func mergeSample(stderr io.Writer, o *Options, in []merge.Input) error {
	format, err := SampleOutputFormat(o.Format)
	if err != nil {
		return err
	}
	files := make([]sampleprof.WeightedFile, len(in))
	for i, x := range in {
		files[i] = sampleprof.WeightedFile{Path: x.Path, Weight: x.Weight}
	}
	warn := func(path string, err error) { warnSample(stderr, path, err) }
	rename, err := readRemapping(o.RemappingFile)
	if err != nil {
		return err
	}
	p, err := sampleprof.MergeFiles(files, rename, warn)
	if err != nil {
		return err
	}
	o.trimColdContexts(p)
	switch o.ProfileLayout {
	case "flat":
		p = sampleprof.Flatten(p)
	case "nest":
		p = csprofile.Nest(p, o.MergedBaseProfiles)
	}
	if err := o.symbolList(stderr, p, format); err != nil {
		return err
	}
	filter, err := newNameFilter(o.Function, o.NoFunction)
	if err != nil {
		return err
	}
	filter.filterSample(stderr, p)
	p.FSDiscriminators = p.FSDiscriminators || o.ProfileIsFS
	if err := writeSampleLimited(o.Output, p, format, o.writeOptions(stderr, format), o.OutputSizeLimit); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "profgen merge: %d sample profiles merged\n", len(files))
	return nil
}

// trimColdContexts merges (--sample-merge-cold-context) or drops
// (--sample-trim-cold-context) the contexts of a context-sensitive profile
// whose total is below the profile's cold count threshold, as
// llvm-profdata does: a merged context keeps its last
// --sample-frame-depth-for-cold-context frames.
func (o *Options) trimColdContexts(p *sampleprof.Profile) {
	if !p.CS || !(o.MergeColdContext || o.TrimColdContext) {
		return
	}
	cold := sampleprof.ComputeSummary(p).ColdThreshold()
	csprofile.TrimColdContexts(p, cold, o.TrimColdContext, o.MergeColdContext, int(o.ColdContextFrameDepth))
}

// symbolList applies --drop-profile-symbol-list and --prof-sym-list, and
// warns as llvm does when the output format cannot hold the list.
func (o *Options) symbolList(stderr io.Writer, p *sampleprof.Profile, format sampleprof.Format) error {
	if o.DropProfileSymbolList {
		p.SymbolList = nil
	}
	if o.ProfSymList != "" {
		data, err := os.ReadFile(o.ProfSymList)
		if err != nil {
			return fmt.Errorf("--prof-sym-list: %w", err)
		}
		for _, s := range strings.Fields(string(data)) {
			p.SymbolList = append(p.SymbolList, s)
		}
	}
	if len(p.SymbolList) > 0 && format != sampleprof.FormatExtBinary {
		fmt.Fprintln(stderr, "warning: Profile Symbol list is not empty but the output format is not ExtBinary format. The list will be lost in the output. ")
	}
	return nil
}

// warnSample prints a warning of the sample merge; counter overflows as
// llvm-profdata words them, one line per function.
func warnSample(stderr io.Writer, path string, err error) {
	var overflow *sampleprof.CounterOverflowError
	if !errors.As(err, &overflow) {
		fmt.Fprintf(stderr, "profgen: warning: %s: %v\n", path, err)
		return
	}
	for _, f := range overflow.Functions {
		fmt.Fprintf(stderr, "profgen merge: warning: %s: %s: Counter overflow\n", path, f)
	}
}

// writeOptions are the extbinary section options; given for another
// format they are ignored with llvm-profdata's warning.
func (o *Options) writeOptions(stderr io.Writer, format sampleprof.Format) sampleprof.WriteOptions {
	wo := sampleprof.WriteOptions{UseMD5: o.UseMD5, Compress: o.CompressAllSections, Partial: o.GenPartialProfile, SplitLayout: o.SplitLayout, VTables: o.WriteVTables}
	if format == sampleprof.FormatExtBinary {
		return wo
	}
	if o.SplitLayout && format == sampleprof.FormatBinary {
		fmt.Fprintln(stderr, "warning: -split-layout is ignored. Specify -extbinary to enable it")
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{o.CompressAllSections, "compress-all-section"}, {o.UseMD5, "use-md5"}, {o.GenPartialProfile, "gen-partial-profile"}} {
		if f.set {
			fmt.Fprintf(stderr, "warning: -%s is ignored. Specify -extbinary to enable it\n", f.name)
		}
	}
	// Text keeps the split layout as !Flat lines (llvm-profdata-22).
	return sampleprof.WriteOptions{SplitLayout: o.SplitLayout && format == sampleprof.FormatText, GCC: o.GCC}
}

// WriteSample writes p to path (- for standard output) atomically.
func WriteSample(path string, p *sampleprof.Profile, format sampleprof.Format, wo sampleprof.WriteOptions) error {
	return writeSampleLimited(path, p, format, wo, 0)
}

// writeSampleLimited is WriteSample with --output-size-limit: the coldest
// functions dropped until the output fits (0: no limit).
func writeSampleLimited(path string, p *sampleprof.Profile, format sampleprof.Format, wo sampleprof.WriteOptions, limit uint64) error {
	if format == sampleprof.FormatUnknown {
		format = sampleprof.FormatExtBinary
	}
	out, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := wo.WriteWithSizeLimit(out, p, format, limit); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return out.Commit()
}

// SampleOutputFormat is the sample profile format llvm-profdata's last
// format flag names; extbinary when none is given.
func SampleOutputFormat(flag string) (sampleprof.Format, error) {
	switch flag {
	case "", FormatExtBinary:
		return sampleprof.FormatExtBinary, nil
	case FormatText:
		return sampleprof.FormatText, nil
	case FormatBinary:
		return sampleprof.FormatBinary, nil
	case FormatGCC:
		return sampleprof.FormatGCC, nil
	}
	return sampleprof.FormatUnknown, errors.New("--" + flag + ": profile encoding format unsupported for writing sample profiles")
}
