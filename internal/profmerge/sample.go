package profmerge

import (
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/sampleprof"
)

// mergeSample merges sample profiles, as llvm-profdata merge --sample,
// and writes the result atomically.
func mergeSample(stderr io.Writer, o *Options, in []merge.Input) error {
	format, err := SampleOutputFormat(o.Text, o.Binary == BinaryFormatOnly, o.ExtBinary)
	if err != nil {
		return err
	}
	files := make([]sampleprof.WeightedFile, len(in))
	for i, x := range in {
		files[i] = sampleprof.WeightedFile{Path: x.Path, Weight: x.Weight}
	}
	warn := func(path string, err error) { fmt.Fprintf(stderr, "profgen: warning: %s: %v\n", path, err) }
	p, err := sampleprof.MergeFiles(files, warn)
	if err != nil {
		return err
	}
	if err := WriteSample(o.Output, p, format, sampleprof.WriteOptions{UseMD5: o.UseMD5}); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "profgen merge: %d sample profiles merged\n", len(files))
	return nil
}

// WriteSample writes p to path (- for standard output) atomically.
func WriteSample(path string, p *sampleprof.Profile, format sampleprof.Format, wo sampleprof.WriteOptions) error {
	if format == sampleprof.FormatUnknown {
		format = sampleprof.FormatExtBinary
	}
	out, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := wo.Write(out, p, format); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return out.Commit()
}

// SampleOutputFormat picks the output format from llvm-profdata's
// --text, --binary and --extbinary flags; extbinary when none is given.
func SampleOutputFormat(text, binary, extbinary bool) (sampleprof.Format, error) {
	n := 0
	f := sampleprof.FormatExtBinary
	for _, c := range []struct {
		set bool
		f   sampleprof.Format
	}{{text, sampleprof.FormatText}, {binary, sampleprof.FormatBinary}, {extbinary, sampleprof.FormatExtBinary}} {
		if c.set {
			n++
			f = c.f
		}
	}
	if n > 1 {
		return sampleprof.FormatUnknown, errors.New("choose one of --text, --binary and --extbinary")
	}
	return f, nil
}
