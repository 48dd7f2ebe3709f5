// Package atomicfile writes output files so that a reader never sees one
// half written: the data goes to a temporary file in the target directory,
// named .<base>.profgen-tmp-<pid>-<random>, which is renamed over the
// target only when the writer commits. A symlink is followed, so the
// target gets the data and the link stays. Standard output ("-",
// /dev/stdout, /dev/fd/1), character devices, pipes and sockets are
// written in place. RemoveOnSignal removes the temporary files when the
// process is interrupted; Create removes those left by processes that
// were killed outright.
package atomicfile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// File is an output being written. Call Commit to publish it or Abort to
// discard it; Abort after Commit does nothing, so `defer f.Abort()` is safe.
type File struct {
	*bufio.Writer
	path string
	tmp  *os.File // nil for standard output and special files
	// direct is a special file (a device such as /dev/null, a FIFO)
	// written in place: renaming over it would replace it.
	direct *os.File
	// target is where the data goes: path with symlinks followed.
	target string
	done   bool
}

// Create starts writing path ("-" for standard output).
func Create(path string) (*File, error) {
	if std := stdStream(path); std != nil {
		return &File{Writer: bufio.NewWriterSize(std, 1<<16), path: path}, nil
	}
	target, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return createDirect(path, target)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	tmp, err := createTemp(dir, base)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{Writer: bufio.NewWriterSize(tmp, 1<<16), path: path, tmp: tmp, target: target}, nil
}

// Commit flushes the data and moves it into place.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: already committed or aborted", f.path)
	}
	f.done = true
	if err := f.Flush(); err != nil {
		f.removeTemp()
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if f.direct != nil {
		if err := f.direct.Close(); err != nil {
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		return nil
	}
	if f.tmp == nil {
		return nil
	}
	if err := f.publish(); err != nil {
		f.removeTemp()
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// publish closes the temporary file and renames it over the target.
func (f *File) publish() error {
	if err := f.tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.tmp.Name(), 0o644); err != nil {
		return err
	}
	return renameTemp(f.tmp.Name(), f.target)
}

// Abort discards the data; the target is left as it was.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.removeTemp()
}

// createDirect writes a special file in place.
func createDirect(path, target string) (*File, error) {
	d, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{Writer: bufio.NewWriterSize(d, 1<<16), path: path, direct: d}, nil
}

func (f *File) removeTemp() {
	if f.direct != nil {
		f.direct.Close()
	}
	if f.tmp != nil {
		f.tmp.Close()
		removeTemp(f.tmp.Name())
	}
}

// Path is the target path.
func (f *File) Path() string { return f.path }
