package profmerge

import (
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/locate"
)

// Correlation are llvm-profdata's flags for raws whose records are in the
// binary (-mllvm -profile-correlate=binary or =debug-info): one binary or
// debug file for every raw (--binary-file, --debug-info), or each raw's
// own, found by its binary id (--correlate with --debug-file-directory or
// --debuginfod).
type Correlation struct {
	DebugInfo            string   // --debug-info
	Correlate            string   // --correlate: "", binary or debug-info
	DebugFileDirs        []string // --debug-file-directory
	Debuginfod           bool     // --debuginfod
	MaxDebugInfoWarnings int      // --max-debug-info-correlation-warnings (0: no limit)
	// Warnings are the correlation's warnings, written with the merge's.
	Warnings []string
}

// correlation checks the correlation flags as llvm-profdata does, in its
// order and words, and sets opts' correlation.
func (o *Options) correlation(opts *merge.Options) error {
	c := &o.Correlation
	byID := c.Debuginfod || len(c.DebugFileDirs) > 0
	switch {
	case c.Correlate != "" && c.Correlate != merge.CorrelateBinary && c.Correlate != merge.CorrelateDebugInfo:
		return fmt.Errorf("--correlate=%s: want binary or debug-info", c.Correlate)
	case c.DebugInfo == "" && o.BinaryFile != "" && byID:
		return errors.New("Expected only one of -binary-file, -debuginfod or -debug-file-directory")
	case c.DebugInfo != "" && (o.BinaryFile != "" || byID):
		return errors.New("Expected only one of -debug-info, -binary-file, -debuginfod or -debug-file-directory")
	}
	if err := o.openCorrelation(opts); err != nil {
		return err
	}
	switch {
	case c.Debuginfod && c.Correlate == "":
		return errors.New("Expected --correlate when --debuginfod is provided")
	case len(c.DebugFileDirs) > 0 && c.Correlate == "":
		return errors.New("Expected --correlate when --debug-file-directory is provided")
	case !byID && c.Correlate != "":
		return errors.New("Expected --debuginfod or --debug-file-directory when --correlate is provided")
	case byID:
		opts.Lookup = &merge.Lookup{Kind: c.Correlate, Finder: c.finder(), MaxWarnings: c.MaxDebugInfoWarnings}
	}
	return nil
}

// openCorrelation opens the one binary or debug file of --binary-file or
// --debug-info. A binary without correlation sections is no error with
// --match-binary-id, which only compares its build id.
func (o *Options) openCorrelation(opts *merge.Options) error {
	c := &o.Correlation
	var err error
	switch {
	case c.DebugInfo != "":
		opts.Correlation, c.Warnings, err = raw.OpenDebugInfoCorrelation(c.DebugInfo, c.MaxDebugInfoWarnings)
	case o.BinaryFile != "":
		opts.Correlation, err = raw.OpenCorrelation(o.BinaryFile)
		if err != nil && o.MatchBinaryID {
			opts.Correlation, err = nil, nil
		}
	}
	return err
}

// finder searches --debug-file-directory, then, with --debuginfod, the
// servers of DEBUGINFOD_URLS (the debuginfod client's environment).
func (c *Correlation) finder() *locate.Finder {
	if c.Debuginfod {
		return locate.FromEnv(c.DebugFileDirs)
	}
	return &locate.Finder{Dirs: c.DebugFileDirs}
}

// writeWarnings writes the correlation's warnings as llvm-profdata words them.
func (c *Correlation) writeWarnings(w io.Writer, command string) {
	for _, msg := range c.Warnings {
		fmt.Fprintf(w, "profgen %s: warning: %s\n", command, msg)
	}
}
