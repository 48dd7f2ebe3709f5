package main

// Sample-profile side of profgen merge. The merge command (cmd_merge.go)
// classifies its inputs with classifyMergeInputs and hands sample profiles
// to runMergeSample; it refuses a mix of sample and instrumentation inputs.

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/sampleprof"
)

// profileKind is what a merge input holds.
type profileKind int

const (
	kindUnknown profileKind = iota
	kindSample              // LLVM sample profile: text, binary, extbinary
	kindInstr               // clang instrumentation: .profraw or indexed .profdata
)

func (k profileKind) String() string {
	return [...]string{"unknown", "sample", "instrumentation"}[k]
}

// Magic numbers of instrumentation profiles, as their first 8 bytes.
var instrMagics = []string{
	"\x81rforpl\xff", // raw, 64-bit (0xff6c70726f667281 little-endian)
	"\x81Rforpl\xff", // raw, 32-bit
	"\xfflprofi\x81", // indexed (0x8169666f72706cff little-endian)
}

// sniffProfile tells sample from instrumentation profiles by their first
// bytes: the binary magics, else whether the text starts like a sample
// profile. Instrumentation text (.proftext) is left to the instr side.
func sniffProfile(head []byte) profileKind {
	for _, m := range instrMagics {
		if len(head) >= 8 && string(head[:8]) == m {
			return kindInstr
		}
	}
	switch sampleprof.Detect(head) {
	case sampleprof.FormatBinary, sampleprof.FormatExtBinary:
		return kindSample
	}
	if sampleprof.IsTextProfile(head) {
		return kindSample
	}
	return kindUnknown
}

// classifyMergeInputs returns the kind all paths share. Mixing sample and
// instrumentation profiles is an error naming one of each.
func classifyMergeInputs(paths []string) (profileKind, error) {
	first := map[profileKind]string{}
	for _, p := range paths {
		k, err := sniffFile(p)
		if err != nil {
			return kindUnknown, err
		}
		if _, ok := first[k]; !ok {
			first[k] = p
		}
	}
	if first[kindSample] != "" && first[kindInstr] != "" {
		return kindUnknown, fmt.Errorf("cannot merge sample profiles (%s) with instrumentation profiles (%s)",
			first[kindSample], first[kindInstr])
	}
	switch {
	case first[kindSample] != "" && first[kindUnknown] != "":
		return kindUnknown, fmt.Errorf("%s: not an LLVM sample profile (merging sample profiles such as %s)", first[kindUnknown], first[kindSample])
	case first[kindSample] != "":
		return kindSample, nil
	case first[kindInstr] != "":
		return kindInstr, nil
	}
	return kindUnknown, nil
}

func sniffFile(path string) (profileKind, error) {
	f, err := os.Open(path)
	if err != nil {
		return kindUnknown, err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return kindUnknown, fmt.Errorf("read %s: %w", path, err)
	}
	return sniffProfile(head[:n]), nil
}

// sampleInput is one sample profile to merge with the weight its counts
// are multiplied by (llvm-profdata's --weighted-input=W,FILE).
type sampleInput struct {
	path   string
	weight uint64
}

// sampleMergeOptions are the output settings of a sample-profile merge.
type sampleMergeOptions struct {
	output string            // path, "-" for standard output
	format sampleprof.Format // default extbinary, as llvm-profdata
	useMD5 bool              // extbinary only
	warn   io.Writer         // warnings (checksum mismatches); nil drops them
}

// runMergeSample merges the sample profiles as llvm-profdata merge --sample
// does and writes the result.
func runMergeSample(opts sampleMergeOptions, inputs []sampleInput) error {
	merged := sampleprof.NewProfile()
	for _, in := range inputs {
		if in.weight == 0 {
			return fmt.Errorf("%s: weight must be a positive integer", in.path)
		}
		p, err := sampleprof.ReadFile(in.path)
		if err != nil {
			return err
		}
		err = sampleprof.Merge(merged, p, in.weight)
		var mismatch *sampleprof.ChecksumMismatchError
		if errors.As(err, &mismatch) && opts.warn != nil {
			fmt.Fprintf(opts.warn, "profgen: warning: %s: %v\n", in.path, err)
		} else if err != nil && mismatch == nil {
			return fmt.Errorf("%s: %w", in.path, err)
		}
	}
	return writeSampleProfile(opts.output, merged, opts.format, sampleprof.WriteOptions{UseMD5: opts.useMD5})
}

// writeSampleProfile writes p to path atomically.
func writeSampleProfile(path string, p *sampleprof.Profile, format sampleprof.Format, wo sampleprof.WriteOptions) error {
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

// sampleOutputFormat picks the output format from llvm-profdata's
// --text, --binary and --extbinary flags; extbinary when none is given.
func sampleOutputFormat(text, binary, extbinary bool) (sampleprof.Format, error) {
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
