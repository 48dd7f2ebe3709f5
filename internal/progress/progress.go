// Package progress shows one progress line on the standard error of a
// long run: the stage, the bytes (or records) read of the total, the rate.
// It appears only when that standard error is a terminal and the run has
// lasted two seconds, and is erased at the end; on anything else (a file,
// a pipe, --quiet) nothing is written.
//
// github.com/schollz/progressbar/v3 draws the line: maintained, small, it
// throttles redraws, formats bytes and rates and erases the line when done.
// It does not look whether its writer is a terminal and draws at once;
// this package adds both (golang.org/x/term, and a writer that drops what
// comes before the delay).
package progress

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Delay is how long a run lasts before its progress line appears.
const Delay = 2 * time.Second

// Line is a progress line; a nil *Line shows nothing.
type Line struct {
	bar *progressbar.ProgressBar
	w   *delayedWriter
}

// New returns a progress line for a stage that reads total bytes (-1:
// unknown) on w, or nil when w is not a terminal.
func New(w io.Writer, total int64, stage string) *Line {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return newLine(w, total, stage, time.Now)
}

func newLine(w io.Writer, total int64, stage string, now func() time.Time) *Line {
	dw := &delayedWriter{w: w, now: now, start: now()}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(dw),
		progressbar.OptionSetDescription(stage),
		progressbar.OptionShowBytes(true),
		progressbar.OptionUseIECUnits(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(false),
	)
	return &Line{bar: bar, w: dw}
}

// Set sets the bytes done.
func (l *Line) Set(n int64) {
	if l != nil {
		l.bar.Set64(n)
	}
}

// Add adds bytes done.
func (l *Line) Add(n int64) {
	if l != nil {
		l.bar.Add64(n)
	}
}

// Stage names what the run does now (its bytes are done).
func (l *Line) Stage(s string) {
	if l != nil {
		l.bar.Describe(s)
	}
}

// Reader counts what is read from r on the line.
func (l *Line) Reader(r io.Reader) io.Reader {
	if l == nil {
		return r
	}
	return &countingReader{r: r, l: l}
}

// Done erases the line, if it was shown.
func (l *Line) Done() {
	if l == nil {
		return
	}
	l.bar.Exit()
	if l.w.wasShown() {
		l.bar.Clear()
	}
	l.w.close()
}

type countingReader struct {
	r io.Reader
	l *Line
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.l.Add(int64(n))
	return n, err
}

// delayedWriter drops what is written before the delay, and after close.
type delayedWriter struct {
	w     io.Writer
	now   func() time.Time
	start time.Time

	mu     sync.Mutex
	shown  bool
	closed bool
}

func (d *delayedWriter) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.now().Sub(d.start) < Delay {
		return len(p), nil
	}
	d.shown = true
	return d.w.Write(p)
}

func (d *delayedWriter) wasShown() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.shown
}

func (d *delayedWriter) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
}
