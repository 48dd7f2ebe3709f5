package addrprof

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/rawprof"
)

// Input is an address profile to merge: its name, for errors, and how to
// read it from its start.
type Input struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// FileInput is the address profile in the file at path.
func FileInput(path string) Input {
	return Input{Name: path, Open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// BytesInput is the address profile data, named name.
func BytesInput(name string, data []byte) Input {
	return Input{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

// MergeFiles merges the address profiles at paths into w (MergeInputs).
func MergeFiles(w io.Writer, paths []string) error {
	ins := make([]Input, len(paths))
	for i, p := range paths {
		ins[i] = FileInput(p)
	}
	return MergeInputs(w, ins)
}

// MergeInputs merges the address profiles ins into w: all of one kind,
// told by their first bytes (profformat): profgen's address profiles of
// call stacks (Merge), or llvm-profgen's unsymbolized profiles, with
// contexts or without, whose counters add. Offsets of unsymbolized
// profiles are kept as written, in the order llvm-profgen writes them
// (offsetBase).
func MergeInputs(w io.Writer, ins []Input) error {
	format, err := commonFormat(ins)
	if err != nil {
		return err
	}
	switch format {
	case profformat.AddressStacks:
		return mergeStackFiles(w, ins)
	case profformat.UnsymbolizedCS:
		return mergeCSFiles(w, ins)
	}
	return mergeLBRFiles(w, ins)
}

// commonFormat is the format all inputs share; mixing is an error naming
// one input of each.
func commonFormat(ins []Input) (profformat.Format, error) {
	var first profformat.Format
	for i, in := range ins {
		f, err := sniff(in)
		if err != nil {
			return 0, err
		}
		if f.Kind() != profformat.KindAddress {
			return 0, fmt.Errorf("%s: not an address profile (merging address profiles such as %s)", in.Name, ins[0].Name)
		}
		if i == 0 {
			first = f
		} else if f != first {
			return 0, fmt.Errorf("cannot merge address profiles of different kinds: %s (%s) and %s (%s)", ins[0].Name, first, in.Name, f)
		}
	}
	return first, nil
}

// sniff tells in's format from its first bytes.
func sniff(in Input) (profformat.Format, error) {
	r, err := in.Open()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	head := make([]byte, profformat.HeadSize)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, fmt.Errorf("read %s: %w", in.Name, err)
	}
	return profformat.Sniff(head[:n]), nil
}

// readEach calls read with each input open.
func readEach(ins []Input, read func(r io.Reader, name string) error) error {
	for _, in := range ins {
		r, err := in.Open()
		if err != nil {
			return err
		}
		err = read(r, in.Name)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func mergeStackFiles(w io.Writer, ins []Input) error {
	var m *merger
	err := readEach(ins, func(r io.Reader, name string) error {
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

func mergeLBRFiles(w io.Writer, ins []Input) error {
	sum := aggregate.NewCounters()
	err := readEach(ins, func(r io.Reader, name string) error {
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

func mergeCSFiles(w io.Writer, ins []Input) error {
	var all []rawprof.Context
	err := readEach(ins, func(r io.Reader, name string) error {
		ctxs, _, err := rawprof.ReadCS(r, name, offsetBase)
		all = append(all, ctxs...)
		return err
	})
	if err != nil {
		return err
	}
	return rawprof.WriteCS(w, all, offsetBase)
}
