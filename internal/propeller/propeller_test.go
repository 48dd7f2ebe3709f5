package propeller

import (
	"bytes"
	encbin "encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
	"github.com/profgen/profgen/internal/record"
)

// testFunc is a function at base with blocks of the given sizes, IDs in
// address order; the last returns.
func testFunc(base uint64, sizes ...uint32) bbaddrmap.Func {
	var blocks []bbaddrmap.Block
	var off uint32
	for i, s := range sizes {
		meta := bbaddrmap.CanFallThrough
		if i == len(sizes)-1 {
			meta = bbaddrmap.HasReturn
		}
		blocks = append(blocks, bbaddrmap.Block{ID: uint32(i), Offset: off, Size: s, Meta: meta})
		off += s
	}
	return bbaddrmap.Func{Version: 5, Ranges: []bbaddrmap.Range{{Base: base, Blocks: blocks}}}
}

// testProgram: leaf (0x1000) has blocks 0..3 of 16 bytes; block 0
// branches over block 1 to block 2 100 times, then 2 and 3 fall through.
// main (0x2000) calls leaf 100 times from its block 0, and loops in
// block 1: C3 puts leaf after its caller.
func testProgram() ([]bbaddrmap.Func, []binary.Symbol, *aggregate.Counters) {
	funcs := []bbaddrmap.Func{testFunc(0x1000, 16, 16, 16, 16), testFunc(0x2000, 32, 16, 8)}
	syms := []binary.Symbol{{Name: "leaf", Addr: 0x1000}, {Name: "leaf_alias", Addr: 0x1000}, {Name: "main", Addr: 0x2000}}
	c := aggregate.NewCounters()
	c.Ranges[aggregate.Range{Start: 0x1000, End: 0x100c}] = 100
	c.Ranges[aggregate.Range{Start: 0x1020, End: 0x103c}] = 100
	c.Branches[record.Branch{From: 0x100c, To: 0x1020}] = 100
	c.Branches[record.Branch{From: 0x2010, To: 0x1000}] = 100
	c.Branches[record.Branch{From: 0x103c, To: 0x2015}] = 100
	c.Ranges[aggregate.Range{Start: 0x2000, End: 0x2010}] = 1
	c.Ranges[aggregate.Range{Start: 0x2015, End: 0x202c}] = 100
	c.Branches[record.Branch{From: 0x202c, To: 0x2020}] = 99
	c.Ranges[aggregate.Range{Start: 0x2020, End: 0x202c}] = 99
	return funcs, syms, c
}

func TestBuild(t *testing.T) {
	funcs, syms, c := testProgram()
	p, err := Build(funcs, syms, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(p, funcs, syms); err != nil {
		t.Fatal(err)
	}
	want := []Func{
		{Names: []string{"main"}, Clusters: [][]uint32{{0, 1}}, Cold: true},
		{Names: []string{"leaf", "leaf_alias"}, Clusters: [][]uint32{{0, 2, 3}}, Cold: true},
	}
	for i := range p.Funcs {
		p.Funcs[i].Blocks = nil
	}
	if !reflect.DeepEqual(p.Funcs, want) {
		t.Errorf("Build = %+v, want %+v", p.Funcs, want)
	}
}

func TestWrite(t *testing.T) {
	funcs, syms, c := testProgram()
	p, err := Build(funcs, syms, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts CCOptions
		want string
	}{
		{"v1", CCOptions{Version: CCv1}, "v1\nf main\nc 0 1\nf leaf leaf_alias\nc 0 2 3\n"},
		{"v1 edges", CCOptions{Version: CCv1, Edges: true}, "v1\nf main\nc 0 1\ng 0:101,1:100 1:199,1:99\nf leaf leaf_alias\nc 0 2 3\ng 0:100,2:100 2:100,3:100 3:100\n"},
		{"v0", CCOptions{Version: CCv0}, "!main\n!!0 1\n!leaf/leaf_alias\n!!0 2 3\n"},
	} {
		var b bytes.Buffer
		if err := WriteCC(&b, p, tc.opts); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: WriteCC =\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
		back, err := ReadCC(&b, tc.name)
		if err != nil {
			t.Fatalf("%s: ReadCC: %v", tc.name, err)
		}
		if len(back.Funcs) != 2 || !reflect.DeepEqual(back.Funcs[1].Clusters, p.Funcs[1].Clusters) || !reflect.DeepEqual(back.Funcs[1].Names, p.Funcs[1].Names) {
			t.Errorf("%s: ReadCC = %+v", tc.name, back.Funcs)
		}
	}
	var ld bytes.Buffer
	if err := WriteLD(&ld, p); err != nil {
		t.Fatal(err)
	}
	if want := "main\nleaf\nmain.cold\nleaf.cold\n"; ld.String() != want {
		t.Errorf("WriteLD = %q, want %q", ld.String(), want)
	}
}

func TestBuildRefuses(t *testing.T) {
	funcs, syms, _ := testProgram()
	if _, err := Build(funcs, syms, aggregate.NewCounters(), nil); err != ErrNoHotFunction {
		t.Errorf("Build of no counts: %v, want ErrNoHotFunction", err)
	}
	_, _, c := testProgram()
	dup := append(syms, binary.Symbol{Name: "main", Addr: 0x3000})
	p, err := Build(funcs, dup, c, nil)
	if err != nil || p.Ambiguous != 1 || len(p.Funcs) != 1 {
		t.Errorf("Build with main twice: %+v, %v; want leaf alone", p, err)
	}
	unit := func(addr uint64) string { return fmt.Sprintf("u%x.c", addr) }
	p, err = Build(funcs, dup, c, unit)
	if err != nil || p.Ambiguous != 0 || len(p.Funcs) != 2 || p.Funcs[0].Module != "u2000.c" || p.Funcs[1].Module != "" {
		t.Fatalf("Build with main twice and units: %+v, %v; want main of u2000.c and leaf", p, err)
	}
	var b bytes.Buffer
	if err := WriteCC(&b, p, CCOptions{Version: CCv1}); err != nil || !strings.HasPrefix(b.String(), "v1\nm u2000.c\nf main\n") {
		t.Errorf("WriteCC = %q, %v; want main's m line", b.String(), err)
	}
	if back, err := ReadCC(&b, "units"); err != nil || back.Funcs[0].Module != "u2000.c" {
		t.Errorf("ReadCC = %+v, %v", back, err)
	}
	b.Reset()
	if err := WriteCC(&b, p, CCOptions{Version: CCv0}); err != nil || !strings.HasPrefix(b.String(), "!main M=u2000.c\n") {
		t.Errorf("WriteCC v0 = %q, %v; want M=", b.String(), err)
	}
}

func TestValidate(t *testing.T) {
	funcs, syms, _ := testProgram()
	for _, tc := range []struct {
		name string
		f    Func
		want string
	}{
		{"unknown function", Func{Names: []string{"nope"}, Clusters: [][]uint32{{0}}}, "not in the binary"},
		{"unknown block", Func{Names: []string{"leaf"}, Clusters: [][]uint32{{0, 9}}}, "block 9"},
		{"repeated block", Func{Names: []string{"leaf"}, Clusters: [][]uint32{{0, 1}, {1}}}, "block 1"},
		{"entry not first", Func{Names: []string{"leaf"}, Clusters: [][]uint32{{1, 0}}}, "entry block 0"},
	} {
		err := Validate(&Profile{Funcs: []Func{tc.f}}, funcs, syms)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzBuild lays out the test program under arbitrary counts (each 5
// bytes: a kind and count, then two 16-bit offsets into 0x1000-0x2040):
// nothing may panic, and every profile built must pass Validate.
func FuzzBuild(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0x0c, 0})                               // a range in leaf's block 0
	f.Add([]byte{1, 0x0c, 0, 0x20, 0, 0, 0x20, 0, 0x3c, 0})       // a branch and a range
	f.Add([]byte{3, 0x10, 0x10, 0, 0, 5, 0x2c, 0x10, 0x20, 0x10}) // a call to leaf, a loop in main
	f.Add([]byte{0, 0x3c, 0, 0x00, 0})                            // a range backwards
	f.Fuzz(func(t *testing.T, data []byte) {
		funcs, syms, _ := testProgram()
		c := aggregate.NewCounters()
		for ; len(data) >= 5; data = data[5:] {
			a := 0x1000 + uint64(encbin.LittleEndian.Uint16(data[1:]))%0x1040
			b := 0x1000 + uint64(encbin.LittleEndian.Uint16(data[3:]))%0x1040
			if data[0]&1 == 0 {
				c.Ranges[aggregate.Range{Start: a, End: b}] += uint64(data[0]>>1) + 1
			} else {
				c.Branches[record.Branch{From: a, To: b}] += uint64(data[0]>>1) + 1
			}
		}
		p, err := Build(funcs, syms, c, nil)
		if err != nil {
			return
		}
		if err := Validate(p, funcs, syms); err != nil {
			t.Fatal(err)
		}
	})
}
