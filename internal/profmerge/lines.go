package profmerge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxListLine bounds a line of an input list or remapping file.
const maxListLine = 1 << 20

// scanLines calls fn with each line of r and its number; errors name the
// file and line.
func scanLines(path string, r io.Reader, fn func(n int, line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxListLine)
	n := 0
	for sc.Scan() {
		n++
		if err := fn(n, sc.Text()); err != nil {
			return err
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%s:%d: line longer than %d bytes", path, n+1, maxListLine)
	} else if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
