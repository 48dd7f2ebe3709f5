// Package profoverlap computes llvm-profdata overlap's report on two
// profiles of one program, a base and a test: how much of the test's
// counts the base shares, program-wide and per function, in
// llvm-profdata-22's words and numbers (or llvm-profdata-19's). Instrumentation profiles (indexed,
// raw, .proftext) are compared counter by counter and value by value
// (instr.go); sample profiles (text, binary, extbinary, gcc) line by line,
// inlinees included, with hot-function and hot-block overlaps (sample.go).
package profoverlap

import (
	"fmt"
	"io"
	"math"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/profshow"
)

// Options are llvm-profdata overlap's flags.
type Options struct {
	Base, Test string
	// Kind is "instr" or "sample" when --instr or --sample was given; ""
	// tells the kind by the base profile's magic.
	Kind string
	// Function (--function): functions whose name contains it get their
	// own report (instrumentation), or are listed (sample profiles).
	Function string
	// ValueCutoff (--value-cutoff): functions whose largest count in the
	// test profile is at least this are reported on their own. LLVM's
	// default is the largest uint64.
	ValueCutoff uint64
	// SimilarityCutoff (--similarity-cutoff), sample profiles: matched
	// functions less similar than this (parts per million) are listed.
	SimilarityCutoff uint64
	CS               bool   // --cs: context-sensitive IR records only
	Output           string // -o: a file instead of w ("-" or "" for w)
	// Version is the llvm-profdata release whose words are written:
	// profshow.LLVM22 (also for 0) or profshow.LLVM19.
	Version int
}

// heading is the report's first lines, naming the profiles. LLVM 22
// spells "information", LLVM 19 "infomation".
func heading(opts Options) string {
	word := "information"
	if opts.Version == profshow.LLVM19 {
		word = "infomation"
	}
	return fmt.Sprintf("Profile overlap %s for base_profile: %s and test_profile: %s\nProgram level:\n", word, opts.Base, opts.Test)
}

// Run writes the overlap report of opts.Base and opts.Test on w, or in
// opts.Output.
func Run(w io.Writer, opts Options) error {
	if opts.Output == "" || opts.Output == "-" {
		return overlap(w, opts)
	}
	out, err := atomicfile.Create(opts.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := overlap(out, opts); err != nil {
		return err
	}
	return out.Commit()
}

func overlap(w io.Writer, opts Options) error {
	kind, err := profileKind(opts)
	if err != nil {
		return err
	}
	if kind == profformat.KindSample {
		return overlapSample(w, opts)
	}
	return overlapInstr(w, opts)
}

// profileKind is the kind --instr or --sample names, else the base
// profile's by its magic, else instrumentation (llvm's default). A profile
// of the other kind is refused before anything is read; one of no known
// kind is left to the reader to say what is wrong with it.
func profileKind(opts Options) (profformat.Kind, error) {
	kinds := map[string]profformat.Kind{}
	for _, path := range []string{opts.Base, opts.Test} {
		if err := profformat.CheckNotEmpty(path, profformat.KindOfFlag(opts.Kind)); err != nil {
			return 0, fmt.Errorf("error in getting profile count sums: %w", err)
		}
		f, err := profformat.SniffFile(path)
		if err != nil {
			return 0, err
		}
		kinds[path] = f.Kind()
	}
	want := profformat.KindOfFlag(opts.Kind)
	if want == profformat.KindUnknown {
		want = kinds[opts.Base]
	}
	if want != profformat.KindSample {
		want = profformat.KindInstr
	}
	for _, path := range []string{opts.Base, opts.Test} {
		if k := kinds[path]; k != profformat.KindUnknown && k != want {
			return 0, fmt.Errorf("%s is %s profile; overlap compares two %s profiles here", path, k.WithArticle(), want)
		}
	}
	return want, nil
}

// percent formats share*100 with prec decimals and a % sign, as LLVM's
// format("%.3f%%") does, glibc's nan and inf included.
func percent(share float64, prec int) string {
	return cFloat(share*100, prec) + "%"
}

// cFloat formats v as C's printf("%.*f") does.
func cFloat(v float64, prec int) string {
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		return "-nan"
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.*f", prec, v)
}
