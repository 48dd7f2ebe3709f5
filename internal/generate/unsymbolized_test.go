package generate

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/record"
)

// readUnsymbolized reads a non-CS llvm-profgen unsymbolized profile (ranges,
// then branches, addresses as offsets from base). Test-only: the product
// reader is internal/rawprof.
func readUnsymbolized(r io.Reader, base uint64) (Counters, error) {
	c := Counters{Ranges: map[Range]uint64{}, Branches: map[record.Branch]uint64{}}
	sc := bufio.NewScanner(r)
	for part := 0; part < 2; part++ {
		if !sc.Scan() {
			return c, fmt.Errorf("missing section %d", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			return c, err
		}
		for i := 0; i < n && sc.Scan(); i++ {
			if err := addCounter(c, sc.Text(), part == 1, base); err != nil {
				return c, err
			}
		}
	}
	return c, sc.Err()
}

func addCounter(c Counters, line string, branch bool, base uint64) error {
	key, count, ok := strings.Cut(strings.TrimSpace(line), ":")
	n, err := strconv.ParseUint(count, 10, 64)
	if !ok || err != nil {
		return fmt.Errorf("bad counter line %q", line)
	}
	sep := "-"
	if branch {
		sep = "->"
	}
	a, b, _ := strings.Cut(key, sep)
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("bad counter line %q", line)
	}
	if branch {
		c.Branches[record.Branch{From: x + base, To: y + base}] += n
	} else {
		c.Ranges[Range{Start: x + base, End: y + base}] += n
	}
	return nil
}
