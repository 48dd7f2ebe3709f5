// Package perfdata is the perf.data source of records: it turns a perf.data
// file into the records of the record model (internal/record) that the perf
// script scanner (internal/perfscript) yields from text, two ways:
//
//   - natively (Native, the default): internal/perfdatafile reads the file, and
//     this package does what perf script does between reading and printing
//     (perf's time ordering of records, its per-process maps for
//     DSO-relative call-chain addresses, the fields ScriptArgs asks for),
//     so that the records are the ones the parser reads from perf script;
//   - through perf (Open, the fallback): it runs `perf script`, streaming
//     its standard output through a pipe (no temporary file). A failure of
//     perf (missing, too old, unreadable file, non-zero exit) surfaces as a
//     one-line error from Open or from the final Read, never as silently
//     truncated text.
//
// In: a perf.data path and the Content it holds (ReadContent). Out:
// record.Records (Native), or perf script text (Open). The file format
// itself is read by internal/perfdatafile.
package perfdata

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// MinVersion is the oldest perf profgen runs. Only perf 6.1 output was
// checked; older perf lacks some of the fields and options profgen asks for
// (brstack, --show-task-events, MMAP2 lines), so a perf before 4.14 is
// refused rather than misread. The exact cut-off was not verified version by
// version.
var MinVersion = Version{4, 14}

// ErrPerfNotFound is returned when the perf tool cannot be found.
var ErrPerfNotFound = errors.New("perf not found on PATH (install linux-perf, or pass --perf-binary)")

// Options choose the perf tool.
type Options struct {
	Perf string // perf executable; "" looks up "perf" on PATH
}

// Open starts `perf script -i path args...` and returns its standard output.
// Closing the reader stops perf if it is still running.
func Open(ctx context.Context, path string, args []string, opts Options) (io.ReadCloser, error) {
	if err := checkReadable(path); err != nil {
		return nil, err
	}
	perf, err := findPerf(opts.Perf)
	if err != nil {
		return nil, err
	}
	if err := checkVersion(ctx, perf); err != nil {
		return nil, err
	}
	return start(ctx, perf, append([]string{"script", "-i", path}, args...))
}

func findPerf(name string) (string, error) {
	if name == "" {
		name = "perf"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if name == "perf" {
			return "", ErrPerfNotFound
		}
		return "", fmt.Errorf("perf binary %s: %w", name, err)
	}
	return p, nil
}

// checkReadable opens path and checks the perf.data magic, so that the user
// gets a plain error instead of perf's multi-line complaint.
func checkReadable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var magic [8]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || !isPerfMagic(magic[:]) {
		return fmt.Errorf("%s: not a perf.data file (no PERFILE2 magic)", path)
	}
	return nil
}

func isPerfMagic(b []byte) bool {
	return string(b) == "PERFILE2" || string(b) == "2ELIFREP"
}

// process is perf's stdout; its final Read reports how perf ended.
type process struct {
	cmd    *exec.Cmd
	out    io.ReadCloser
	stderr *bytes.Buffer
	done   bool
	err    error
}

func start(ctx context.Context, perf string, args []string) (io.ReadCloser, error) {
	cmd := exec.CommandContext(ctx, perf, args...)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", perf, err)
	}
	return &process{cmd: cmd, out: out, stderr: stderr}, nil
}

func (p *process) Read(b []byte) (int, error) {
	if p.done {
		return 0, p.err
	}
	n, err := p.out.Read(b)
	if err == io.EOF {
		p.done = true
		p.err = p.wait()
		if p.err == nil {
			p.err = io.EOF
		}
		return n, p.err
	}
	return n, err
}

func (p *process) wait() error {
	if err := p.cmd.Wait(); err != nil {
		return fmt.Errorf("perf script failed (%v): %s", exitStatus(err), lastLine(p.stderr.String()))
	}
	return nil
}

func (p *process) Close() error {
	if p.done {
		return nil
	}
	p.done = true
	p.out.Close()
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	p.cmd.Wait()
	return nil
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// lastLine returns the last non-empty line of perf's stderr, which names
// the problem (earlier lines are warnings).
func lastLine(s string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			last = t
		}
	}
	if last == "" {
		return "no message"
	}
	return last
}
