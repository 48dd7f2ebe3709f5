package profshow

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/pprofread"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Options are the settings of profgen show.
type Options struct {
	Function string // one function's body and inline tree
	JSON     bool   // JSON for scripts
	Top      int    // number of hottest functions in profgen's summary; 0: 10, or llvm's text for .profdata
	// LLVM holds llvm-profdata show's flags: indexed profiles are shown
	// with llvm-profdata-19's text unless JSON or Top is set.
	LLVM   LLVMOptions
	Kind   string // "instr" or "sample" when --instr or --sample was given
	Output string // -o: a file instead of w ("-" or "" for w)
	// Stderr gets llvm-profdata's warnings (default os.Stderr).
	Stderr io.Writer
	// DebugInfo, when its Path is set, shows a binary's profile metadata
	// instead of a profile (llvm-profdata show --debug-info).
	DebugInfo DebugInfoOptions
	// ProfiledBinary is the binary a raw MemProf profile was collected
	// from (--profiled-binary), for --memory.
	ProfiledBinary string
}

// Run shows the profile at path, its summary or one function, on w or in
// opts.Output.
func Run(w io.Writer, opts Options, path string) error {
	if opts.Output == "" || opts.Output == "-" {
		return show(w, opts, path)
	}
	out, err := atomicfile.Create(opts.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := show(out, opts, path); err != nil {
		return err
	}
	return out.Commit()
}

// stderr is where llvm-profdata's warnings go.
func (opts Options) stderr() io.Writer {
	if opts.Stderr == nil {
		return os.Stderr
	}
	return opts.Stderr
}

func show(w io.Writer, opts Options, path string) error {
	if opts.DebugInfo.Path != "" {
		return showDebugInfo(w, opts)
	}
	if path == "" {
		return errors.New("the positional argument '<profdata-file>' is required unless '--debug-info' is provided")
	}
	if err := profformat.CheckNotEmpty(path, profformat.KindOfFlag(opts.Kind)); err != nil {
		return err
	}
	if opts.Kind == "memory" {
		return showMemory(w, opts, path)
	}
	head, err := profformat.ReadHead(path)
	if err != nil {
		return err
	}
	if err := checkKind(opts.Kind, profformat.Sniff(head).Kind(), path); err != nil {
		return err
	}
	if opts.LLVM.AllFunctions && opts.Function != "" && !opts.JSON && opts.Top == 0 {
		fmt.Fprintln(opts.stderr(), "warning: -function argument ignored: showing all functions")
	}
	if err := checkShowFormat(opts); err != nil {
		return err
	}
	if opts.LLVM.ShowSecInfoOnly && profformat.Sniff(head).Kind() == profformat.KindSample {
		return showSections(w, opts, path)
	}
	if opts.Kind == "sample" && !opts.JSON && opts.Top == 0 {
		p, err := sampleprof.ReadFile(path)
		if err != nil {
			return err
		}
		return writeLLVMSample(w, p, opts)
	}
	if opts.Top == 0 {
		if k := profformat.Sniff(head); (k == profformat.Indexed || k == profformat.InstrText || k.IsRaw()) && !opts.JSON {
			opts.LLVM.Function = opts.Function
			return WriteLLVMInstr(w, path, opts.LLVM)
		}
		opts.Top = 10
	}
	return run(w, opts, path)
}

// checkShowFormat refuses the --show-format values llvm-profdata-19
// refuses for the profile's kind (--sample, or instrumentation), with its
// words.
func checkShowFormat(opts Options) error {
	kind := "instr"
	if opts.Kind == "sample" {
		kind = "sample"
	}
	switch {
	case opts.LLVM.ShowFormat == "json" && kind == "instr":
		return errors.New("JSON output is not supported for instr profiles")
	case opts.LLVM.ShowFormat == "yaml":
		return fmt.Errorf("YAML output is not supported for %s profiles", kind)
	case opts.LLVM.ShowFormat == "json" && opts.Function != "" && !opts.LLVM.AllFunctions:
		return errors.New("the JSON format is supported only when all functions are to be printed")
	}
	return nil
}

// checkKind refuses a profile of the other family than --instr or
// --sample names, as llvm-profdata show cannot read it.
func checkKind(flag string, kind profformat.Kind, path string) error {
	if flag == "" || flag == kind.String() || flag == "instr" && kind == profformat.KindInstr {
		return nil
	}
	return fmt.Errorf("%s: --%s given, but it is %s profile", path, flag, kind.WithArticle())
}

func run(w io.Writer, opts Options, path string) error {
	head, err := profformat.ReadHead(path)
	if err != nil {
		return err
	}
	switch profformat.Sniff(head) {
	case profformat.Indexed:
		return showInstr(w, opts, path)
	case profformat.RawLE64, profformat.RawLE32, profformat.RawBE64, profformat.RawBE32:
		return fmt.Errorf("%s: a raw instrumentation profile: profgen's summary (--top, --json) reads indexed .profdata; merge it first (profgen merge)", path)
	case profformat.SampleText, profformat.SampleBinary, profformat.SampleExtBinary, profformat.SampleGCC, profformat.InstrText:
		return showSample(w, opts, path, sampleFormat(head))
	case profformat.Unknown:
		if profformat.LooksLikeText(head) {
			return showSample(w, opts, path, sampleFormat(head))
		}
	}
	return showPprof(w, opts, path)
}

// showSample summarizes a sample profile, or shows one function.
func showSample(w io.Writer, opts Options, path string, format sampleprof.Format) error {
	p, err := sampleprof.ReadFile(path)
	if err != nil {
		return err
	}
	if opts.Function != "" {
		return showSampleFunction(w, opts, path, p)
	}
	s := Summarize(p, format.String(), opts.Top)
	return writeShow(w, opts.JSON, s, func(w io.Writer) error { return WriteSummary(w, s) })
}

// sampleFormat is the encoding of the sample profile starting with head.
func sampleFormat(head []byte) sampleprof.Format {
	if f := sampleprof.Detect(head); f != sampleprof.FormatUnknown {
		return f
	}
	return sampleprof.FormatText
}

// showInstr summarizes an indexed instrumentation profile, or shows the
// counters of one function.
func showInstr(w io.Writer, opts Options, path string) error {
	s, fns, err := ReadInstr(path)
	if err != nil {
		return err
	}
	if opts.Function == "" {
		s.TopInstr(fns, opts.Top)
		return writeShow(w, opts.JSON, s, func(w io.Writer) error { return WriteInstrSummary(w, s) })
	}
	found := FindInstrFunctions(fns, opts.Function)
	if len(found) == 0 {
		return fmt.Errorf("%s: no function %s", path, opts.Function)
	}
	return writeShow(w, opts.JSON, found, func(w io.Writer) error {
		for _, f := range found {
			WriteInstrFunction(w, f)
		}
		return nil
	})
}

// showSampleFunction shows a top-level function, or else every instance
// of it inlined somewhere.
func showSampleFunction(w io.Writer, opts Options, path string, p *sampleprof.Profile) error {
	f, err := FindFunction(p, opts.Function)
	if in := FindInlined(p, opts.Function); f == nil && len(in) > 0 {
		return writeShow(w, opts.JSON, in, func(w io.Writer) error { return WriteInstances(w, opts.Function, in) })
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeShow(w, opts.JSON, f, func(w io.Writer) error { return WriteFunction(w, f) })
}

// writeShow writes v as JSON, or for people through text, buffered.
func writeShow(w io.Writer, asJSON bool, v any, text func(io.Writer) error) error {
	bw := bufio.NewWriter(w)
	var err error
	if asJSON {
		err = WriteJSON(bw, v)
	} else {
		err = text(bw)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// showPprof summarizes a pprof profile.
func showPprof(w io.Writer, opts Options, path string) error {
	p, err := pprofread.Read(path)
	if err != nil {
		return fmt.Errorf("neither an LLVM sample profile nor pprof: %w", err)
	}
	if opts.Function != "" {
		fn, err := FindPprofFunction(p, opts.Function)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return writeShow(w, opts.JSON, fn, func(w io.Writer) error { return WritePprofFunction(w, fn) })
	}
	s := SummarizePprof(p, opts.Top)
	return writeShow(w, opts.JSON, s, func(w io.Writer) error { return WritePprofSummary(w, s) })
}

// showSections prints the section table of an extbinary sample profile
// (--show-sec-info-only); other formats get llvm-profdata's warning.
func showSections(w io.Writer, opts Options, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	err = sampleprof.WriteSectionInfo(w, data)
	if errors.Is(err, sampleprof.ErrNoSections) {
		fmt.Fprintln(opts.stderr(), "warning: -show-sec-info-only is only supported for sample profile in extbinary format and is ignored for other formats.")
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
