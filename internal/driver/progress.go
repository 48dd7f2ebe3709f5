package driver

import (
	"os"

	"github.com/profgen/profgen/internal/perfdata"
	"github.com/profgen/profgen/internal/progress"
	"github.com/profgen/profgen/internal/record"
)

// startProgress shows how far the input is read, on a terminal's stderr
// in a long run (internal/progress): the bytes of perf script text or of
// the perf.data file.
func startProgress(p *plan, in *input) *progress.Line {
	if p.Quiet {
		return nil
	}
	total := int64(-1)
	if in.native != nil {
		_, total = in.native.Progress()
	} else if f, ok := in.Reader.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			total = st.Size()
		}
	}
	l := progress.New(p.Stderr, total, "reading "+in.name)
	in.progress = l
	if in.Reader != nil {
		in.Reader = l.Reader(in.Reader)
	}
	return l
}

// stageProgress shows that a stage without a measure runs.
func stageProgress(p *plan, stage string) *progress.Line {
	if p.Quiet {
		return nil
	}
	return progress.New(p.Stderr, -1, stage)
}

// progressRecords reads the native records, moving the progress line
// every few thousand records.
func (in *input) progressRecords() record.Source {
	if in.progress == nil {
		return in.native
	}
	return &nativeProgress{Native: in.native, line: in.progress}
}

type nativeProgress struct {
	*perfdata.Native
	line *progress.Line
	n    int
}

func (p *nativeProgress) Next() bool {
	p.n++
	if p.n%4096 == 0 {
		done, _ := p.Native.Progress()
		p.line.Set(done)
	}
	return p.Native.Next()
}
