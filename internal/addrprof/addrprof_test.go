package addrprof

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/testutil"
)

// part is a small profile: objects met at times ns, each stack in objects
// by index.
func part(ns uint64, objs []string, stacks ...aggregate.Stack) *Profile {
	c := &aggregate.StackCounts{Symbols: map[aggregate.Loc]string{}, Events: map[string]uint64{"cpu-clock": 0},
		FirstNS: ns, LastNS: ns + 10, Stats: aggregate.StackStats{PerBinary: []uint64{0}}}
	for i, path := range objs {
		o := aggregate.Object{Path: path, Binary: -1, First: aggregate.Seen{NS: ns, Sample: 1, Frame: i}}
		switch path {
		case "/bin/prog":
			o.Binary = 0
		case "[kernel.kallsyms]":
			o.Kernel = true
		}
		c.Objects = append(c.Objects, o)
	}
	for _, s := range stacks {
		s := s
		c.Stacks = append(c.Stacks, &s)
		c.Events["cpu-clock"] += s.Count
		c.Stats.Samples += s.Count + 1
		c.Stats.Used += s.Count
		c.Stats.NoBinary++
		if c.Objects[s.Locs[0].Obj].Binary == 0 {
			c.Stats.PerBinary[0] += s.Count
			c.Stats.LeafInBins += s.Count
		}
		for _, l := range s.Locs {
			if c.Objects[l.Obj].Binary < 0 {
				c.Symbols[l] = "sym_" + c.Objects[l.Obj].Path
			}
		}
	}
	c.Stacks = aggregate.SortStacks(c.Stacks)
	return &Profile{Binaries: []Binary{{BuildID: "abcdef01", Path: "/bin/prog"}}, Counts: c}
}

func stack(count uint64, locs ...aggregate.Loc) aggregate.Stack {
	return aggregate.Stack{Locs: locs, Count: count, Period: count * 1000}
}

func loc(obj int32, addr uint64) aggregate.Loc { return aggregate.Loc{Obj: obj, Addr: addr} }

// parts are four profiles of one binary, met in different orders.
func parts() []*Profile {
	return []*Profile{
		part(100, []string{"[kernel.kallsyms]", "/bin/prog"}, stack(3, loc(0, 0xffffffff81000000), loc(1, 0x401000)), stack(2, loc(1, 0x401010))),
		part(200, []string{"/bin/prog", "/lib/libc.so.6"}, stack(5, loc(0, 0x401010)), stack(1, loc(1, 0x2700), loc(0, 0x401020))),
		part(50, []string{"/lib/libc.so.6", "/bin/prog"}, stack(7, loc(0, 0x2700), loc(1, 0x401020))),
		part(300, []string{"/bin/prog"}, stack(1, loc(0, 0x401010))),
	}
}

func write(t *testing.T, p *Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func merge(t *testing.T, ps ...*Profile) *Profile {
	t.Helper()
	names := make([]string, len(ps))
	m, err := Merge(ps, names)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMergeAssociativeCommutative: every grouping and order of the parts
// writes the same bytes, pinned by a golden file.
func TestMergeAssociativeCommutative(t *testing.T) {
	p := parts()
	shapes := map[string]*Profile{
		"flat":        merge(t, p[0], p[1], p[2], p[3]),
		"reversed":    merge(t, p[3], p[2], p[1], p[0]),
		"left tree":   merge(t, merge(t, merge(t, p[0], p[1]), p[2]), p[3]),
		"right tree":  merge(t, p[2], merge(t, p[3], merge(t, p[1], p[0]))),
		"balanced":    merge(t, merge(t, p[1], p[3]), merge(t, p[2], p[0])),
		"round trips": merge(t, readBack(t, merge(t, p[0], p[2])), readBack(t, merge(t, p[3], p[1]))),
	}
	want := write(t, shapes["flat"])
	for name, m := range shapes {
		if got := write(t, m); !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	golden(t, "merged.addr", want)
}

func readBack(t *testing.T, p *Profile) *Profile {
	t.Helper()
	r, err := Read(bytes.NewReader(write(t, p)), "test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if testutil.Update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from %s (rerun with -update):\n%s", path, got)
	}
}

// TestRoundTrip: what Write writes, Read reads back as it was.
func TestRoundTrip(t *testing.T) {
	for i, p := range parts() {
		want := write(t, p)
		if got := write(t, readBack(t, p)); !bytes.Equal(got, want) {
			t.Errorf("part %d:\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestMergeRefusesOtherBinaries: one line naming both files.
func TestMergeRefusesOtherBinaries(t *testing.T) {
	a, b := parts()[0], parts()[1]
	b.Binaries = []Binary{{BuildID: "ffff", Path: "/bin/prog"}}
	_, err := Merge([]*Profile{a, b}, []string{"a.addr", "b.addr"})
	if err == nil || !strings.Contains(err.Error(), "a.addr") || !strings.Contains(err.Error(), "b.addr") || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line naming a.addr and b.addr", err)
	}
}

// TestReadErrors: each malformed line is named by file and line.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"no header", "binary - 0 \"x\"\n", "not a profgen address profile"},
		{"empty", "", "the file is empty"},
		{"other version", "# profgen address profile v2\n", "not a profgen address profile"},
		{"unknown line", Header + "\nfoo 1\n", "f:2: unknown line"},
		{"bad build id", Header + "\nbinary XYZ 0 \"p\"\n", "f:2: want a lower-case hex build id"},
		{"unquoted path", Header + "\nbinary - 0 p\n", "f:2: want a quoted string"},
		{"object of no binary", Header + "\nobject binary 0 0 0 0 \"p\"\n", "f:2: object of binary"},
		{"bad kind", Header + "\nobject lib - 0 0 0 \"p\"\n", "f:2: want an object kind"},
		{"frame of no object", Header + "\nstack 1 1 0:10\n", "f:2: frame \"0:10\" of object 0"},
		{"stack without frames", Header + "\nstack 1 1\n", "f:2: want <count> <period> and at least one frame"},
		{"bad frame", Header + "\nobject dso - 0 0 0 \"p\"\nstack 1 1 0:zz\n", "f:3: want a frame"},
		{"unknown stat", Header + "\nstat lost 3\n", "f:2: unknown statistic"},
		{"binary after object", Header + "\nobject dso - 0 0 0 \"p\"\nbinary - 0 \"q\"\n", "f:3: binary after the first object"},
		{"bad time", Header + "\ntime 1\n", "f:2: want <first ns> <last ns>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), "f")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	_, err := Read(strings.NewReader("x\n"), "f")
	if !errors.Is(err, ErrNotAddressProfile) {
		t.Errorf("err = %v, want ErrNotAddressProfile", err)
	}
}

// FuzzRead: Read never panics, and what it reads writes and reads back
// to the same bytes.
func FuzzRead(f *testing.F) {
	for _, p := range parts() {
		var b bytes.Buffer
		if err := Write(&b, p); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		once := write(t, p)
		if twice := write(t, readBack(t, p)); !bytes.Equal(once, twice) {
			t.Errorf("not stable:\n%s\nthen\n%s", once, twice)
		}
	})
}
