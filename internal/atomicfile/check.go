package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotWritable marks an output path that cannot be written.
var ErrNotWritable = errors.New("cannot be written")

// CheckWritable tells, before any work, whether Create(path) can succeed:
// the directory exists and accepts a new file (checked by creating and
// removing one), and the path is not a directory. Standard output and
// special files are checked by opening them for writing.
func CheckWritable(path string) error {
	if stdStream(path) != nil {
		return nil
	}
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if fi, err := os.Stat(target); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("output %s is a directory: %w", path, ErrNotWritable)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return fmt.Errorf("output %s: %w", path, err)
			}
			return f.Close()
		}
	}
	return checkDir(path, filepath.Dir(target), filepath.Base(target))
}

func checkDir(path, dir, base string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("output %s: directory %s does not exist: %w", path, dir, ErrNotWritable)
	case err != nil:
		return fmt.Errorf("output %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("output %s: %s is not a directory: %w", path, dir, ErrNotWritable)
	}
	tmp, err := createTemp(dir, base)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("output %s: directory %s: %v: %w", path, dir, err, ErrNotWritable)
	}
	tmp.Close()
	removeTemp(tmp.Name())
	return nil
}
