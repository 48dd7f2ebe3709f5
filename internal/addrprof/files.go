package addrprof

import (
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/rawprof"
)

// MergeFiles merges the address profiles at paths into w: all of one
// kind, told by their first bytes (profformat): profgen's address profiles
// of call stacks (Merge), or llvm-profgen's unsymbolized profiles, with
// contexts or without, whose counters add. Offsets of unsymbolized
// profiles are kept as written, in the order llvm-profgen writes them
// (offsetBase).
func MergeFiles(w io.Writer, paths []string) error {
	format, err := commonFormat(paths)
	if err != nil {
		return err
	}
	switch format {
	case profformat.AddressStacks:
		return mergeStackFiles(w, paths)
	case profformat.UnsymbolizedCS:
		return mergeCSFiles(w, paths)
	}
	return mergeLBRFiles(w, paths)
}

// commonFormat is the format all paths share; mixing is an error naming
// one file of each.
func commonFormat(paths []string) (profformat.Format, error) {
	var first profformat.Format
	for i, p := range paths {
		f, err := profformat.SniffFile(p)
		if err != nil {
			return 0, err
		}
		if f.Kind() != profformat.KindAddress {
			return 0, fmt.Errorf("%s: not an address profile (merging address profiles such as %s)", p, paths[0])
		}
		if i == 0 {
			first = f
		} else if f != first {
			return 0, fmt.Errorf("cannot merge address profiles of different kinds: %s (%s) and %s (%s)", paths[0], first, p, f)
		}
	}
	return first, nil
}

// readEach calls read with each file open.
func readEach(paths []string, read func(r io.Reader, name string) error) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = read(f, p)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func mergeStackFiles(w io.Writer, paths []string) error {
	var m *merger
	err := readEach(paths, func(r io.Reader, name string) error {
		p, err := Read(r, name)
		if err == nil {
			m, err = m.add(p, name)
		}
		return err
	})
	if err != nil {
		return err
	}
	return Write(w, m.profile())
}

// offsetBase is the base the offsets of unsymbolized profiles are read
// and written from. llvm-profgen sorts by address, and the external
// address (aggregate.ExternalAddr), below the binary's base, prints as a
// wrapped negative offset (ffffffffffff5001): with the base at 2^63 the
// wrapped offsets sort first and the others after, in llvm-profgen's
// order, whatever the binary's base was.
const offsetBase = 1 << 63

func mergeLBRFiles(w io.Writer, paths []string) error {
	sum := aggregate.NewCounters()
	err := readEach(paths, func(r io.Reader, name string) error {
		c, err := rawprof.Read(r, name, offsetBase)
		if err == nil {
			sum.Add(c)
		}
		return err
	})
	if err != nil {
		return err
	}
	return rawprof.Write(w, sum, offsetBase)
}

func mergeCSFiles(w io.Writer, paths []string) error {
	var all []rawprof.Context
	err := readEach(paths, func(r io.Reader, name string) error {
		ctxs, _, err := rawprof.ReadCS(r, name, offsetBase)
		all = append(all, ctxs...)
		return err
	})
	if err != nil {
		return err
	}
	return rawprof.WriteCS(w, all, offsetBase)
}
