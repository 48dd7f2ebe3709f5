package pseudoprobe

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// enc builds section bytes.
type enc []byte

func (e enc) u64(v uint64) enc { return binary.LittleEndian.AppendUint64(e, v) }
func (e enc) b(bs ...byte) enc { return append(e, bs...) }
func (e enc) str(s string) enc { return append(append(e, byte(len(s))), s...) }

const (
	guidMain = 0x1111
	guidFoo  = 0x2222
	guidBar  = 0x3333
	guidCold = 0x4444 // symbol name GUID of main's split-off part
)

var starts = map[uint64]uint64{guidMain: 0x1000, guidFoo: 0x2000, guidCold: 0x3000}

func startOf(g uint64) (uint64, bool) { a, ok := starts[g]; return a, ok }

// probeString renders a probe for comparisons: addr GUID:index type attr disc @ context.
func probeString(p Probe) string {
	var ctx []string
	for n := p.Node; n.Parent != nil; n = n.Parent {
		ctx = append(ctx, hex(n.Parent.GUID)+":"+itoa(n.Site))
	}
	return hex(p.Addr) + " " + hex(p.GUID()) + ":" + itoa(p.Index) + " " + p.Type.String() + " a" + itoa(uint32(p.Attributes)) + " d" + itoa(p.Discriminator) + " @" + strings.Join(ctx, ",")
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		data enc
		keep func(uint64) bool
		want []string
	}{
		{
			name: "deltas from the function start",
			data: enc{}.u64(guidMain).b(3, 0).
				b(1, 0x80, 0).    // index 1, block, delta 0
				b(2, 0x82, 0x0e). // index 2, direct call, +14
				b(3, 0x81, 0x7e), // index 3, indirect call, -2
			want: []string{"0x1000 0x1111:1 Block a0 d0 @", "0x100c 0x1111:3 IndirectCall a0 d0 @", "0x100e 0x1111:2 DirectCall a0 d0 @"},
		},
		{
			name: "inlinees nest, deltas run on",
			data: enc{}.u64(guidMain).b(1, 1).b(1, 0x80, 4).
				b(7).u64(guidFoo).b(1, 1).b(1, 0x80, 2).
				b(5).u64(guidBar).b(1, 0).b(4, 0x80, 1),
			want: []string{"0x1004 0x1111:1 Block a0 d0 @", "0x1006 0x2222:1 Block a0 d0 @0x1111:7", "0x1007 0x3333:4 Block a0 d0 @0x2222:5,0x1111:7"},
		},
		{
			name: "each top-level record restarts at its function",
			data: enc{}.u64(guidMain).b(1, 0).b(1, 0x80, 0).u64(guidFoo).b(1, 0).b(1, 0x80, 8),
			want: []string{"0x1000 0x1111:1 Block a0 d0 @", "0x2008 0x2222:1 Block a0 d0 @"},
		},
		{
			name: "a function without a symbol goes on from the previous address",
			data: enc{}.u64(guidMain).b(1, 0).b(1, 0x80, 0x10).u64(guidBar).b(1, 0).b(1, 0x80, 8),
			want: []string{"0x1010 0x1111:1 Block a0 d0 @", "0x1018 0x3333:1 Block a0 d0 @"},
		},
		{
			name: "sentinel moves to the split-off part and is not kept",
			data: enc{}.u64(guidMain).b(2, 0).b(0, 0x20).u64(guidCold).b(9, 0x80, 3),
			want: []string{"0x3003 0x1111:9 Block a0 d0 @"},
		},
		{
			name: "discriminator",
			data: enc{}.u64(guidMain).b(1, 0).b(6, 0xc0, 2, 0x85, 0x01),
			want: []string{"0x1002 0x1111:6 Block a4 d133 @"},
		},
		{
			name: "absolute addresses: records no longer restart",
			data: enc{}.u64(guidMain).b(2, 0).b(1, 0x00).u64(0x5000).b(2, 0x80, 4).
				u64(guidFoo).b(1, 0).b(1, 0x80, 4),
			want: []string{"0x5000 0x1111:1 Block a0 d0 @", "0x5004 0x1111:2 Block a0 d0 @", "0x5008 0x2222:1 Block a0 d0 @"},
		},
		{
			name: "filtered records are read past, deltas still run",
			data: enc{}.u64(guidMain).b(1, 1).b(1, 0x80, 4).b(7).u64(guidFoo).b(1, 0).b(1, 0x80, 2).
				u64(guidBar).b(1, 0).b(2, 0x80, 1),
			keep: func(g uint64) bool { return g == guidBar },
			want: []string{"0x1007 0x3333:2 Block a0 d0 @"},
		},
		{
			name: "probes at one address keep section order",
			data: enc{}.u64(guidMain).b(2, 1).b(5, 0x80, 0).b(3, 0x80, 0).b(2).u64(guidFoo).b(1, 0).b(1, 0x82, 0),
			want: []string{"0x1000 0x1111:5 Block a0 d0 @", "0x1000 0x1111:3 Block a0 d0 @", "0x1000 0x2222:1 DirectCall a0 d0 @0x1111:2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := Decode(tt.data, Options{FuncStart: startOf, Keep: tt.keep})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range table.All() {
				got = append(got, probeString(p))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		data enc
		want string
	}{
		{"short GUID", enc{}.b(1, 2, 3), ".pseudo_probe+0x0: truncated function GUID: 3 of 8 bytes"},
		{"no probe count", enc{}.u64(1), ".pseudo_probe+0x8: truncated probe count"},
		{"probe missing", enc{}.u64(1).b(2, 0, 1, 0x80, 0), ".pseudo_probe+0xd: truncated probe index"},
		{"delta cut", enc{}.u64(1).b(1, 0, 1, 0x80, 0x80), ".pseudo_probe+0xc: truncated address delta"},
		{"index over 32 bits", enc{}.u64(1).b(1, 0, 0x80, 0x80, 0x80, 0x80, 0x10), ".pseudo_probe+0xa: probe index 4294967296 out of range (max 4294967295)"},
		{"ULEB over 64 bits", enc{}.u64(1).b(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), ".pseudo_probe+0x8: probe count: ULEB128 overflows 64 bits"},
		{"inlinee missing", enc{}.u64(1).b(0, 3), ".pseudo_probe+0xa: truncated inline site"},
		{"deep nesting cut", deepNesting(100000), ".pseudo_probe+0x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.data, Options{FuncStart: startOf})
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

// deepNesting is a chain of n inlinees, the last one cut short.
func deepNesting(n int) enc {
	e := enc{}.u64(guidMain).b(0, 1)
	for i := 0; i < n; i++ {
		e = e.b(1).u64(guidFoo).b(0, 1)
	}
	return e
}

func TestDecodeDescs(t *testing.T) {
	data := enc{}.u64(guidFoo).u64(7).str("foo").u64(guidMain).u64(9).str("main").u64(guidFoo).u64(8).str("foo2")
	d, err := DecodeDescs(data)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 2 || d.Lookup(guidFoo).Name != "foo" || d.Lookup(guidFoo).Hash != 7 || d.Lookup(guidMain).Name != "main" {
		t.Errorf("got %+v %+v", d.Lookup(guidFoo), d.Lookup(guidMain))
	}
	var b strings.Builder
	d.Print(&b)
	if want := "Pseudo Probe Desc:\nGUID: 4369 Name: main\nHash: 9\nGUID: 8738 Name: foo\nHash: 7\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	_, err = DecodeDescs(enc{}.u64(1).u64(2).b(5).b('a'))
	if err == nil || err.Error() != ".pseudo_probe_desc+0x11: truncated function name: 5 bytes declared, 1 left" {
		t.Errorf("got %v", err)
	}
}

func TestInlineContext(t *testing.T) {
	descs, _ := DecodeDescs(enc{}.u64(guidMain).u64(1).str("main").u64(guidFoo).u64(2).str("foo").u64(guidBar).u64(3).str("bar"))
	data := enc{}.u64(guidMain).b(0, 1).b(7).u64(guidFoo).b(0, 2).
		b(5).u64(guidBar).b(1, 0).b(4, 0x82, 1).
		b(0).u64(guidBar).b(1, 0).b(2, 0x80, 1)
	table, err := Decode(data, Options{FuncStart: startOf})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		probe int
		leaf  bool
		want  string
	}{
		{0, true, "main:7 foo:5 bar:4"},
		{0, false, "main:7 foo:5"},
		{1, true, "bar:2"}, // a call site of index 0 cuts the context above it
	}
	for _, tt := range tests {
		p := table.All()[tt.probe]
		fs, ok := descs.InlineContext(&p, tt.leaf, nil)
		var got []string
		for _, f := range fs {
			got = append(got, f.Name+":"+itoa(f.Index))
		}
		if !ok || strings.Join(got, " ") != tt.want {
			t.Errorf("probe %d leaf %v: got %q %v, want %q", tt.probe, tt.leaf, got, ok, tt.want)
		}
	}
	if got := descs.FormatProbe(&table.All()[0]); got != " [Probe]:\tFUNC: bar Index: 4  Type: DirectCall  Inlined: @ main:7 @ foo:5" {
		t.Errorf("FormatProbe: %q", got)
	}
	if p := table.CallProbeAt(0x1001); p == nil || p.Index != 4 {
		t.Errorf("CallProbeAt: %v", p)
	}
	if got := len(table.InRange(0x1000, 0x1002)); got != 2 {
		t.Errorf("InRange: %d probes", got)
	}
}

func hex(v uint64) string  { return "0x" + strconvFormat(v, 16) }
func itoa(v uint32) string { return strconvFormat(uint64(v), 10) }

func strconvFormat(v uint64, base int) string { return strconv.FormatUint(v, base) }

// TestIndexFromDiscriminator: the probe index clang packs into DWARF
// discriminators (PseudoProbeDwarfDiscriminator::packProbeData: index
// << 3, factor << 19, type << 26, 0x7; with bit 28 a base discriminator in
// bits 16-18 and a 13-bit index).
func TestIndexFromDiscriminator(t *testing.T) {
	pack := func(index, factor, typ uint32, base int) uint32 {
		v := index<<3 | factor<<19 | typ<<26 | 7
		if base >= 0 {
			v |= 1<<28 | uint32(base)<<16
		}
		return v
	}
	for _, tt := range []struct {
		d    uint32
		want uint32
	}{
		{pack(5, 100, 0, -1), 5},
		{pack(5, 100, 2, 3), 5},
		{pack(0x1fff, 50, 1, 7), 0x1fff},
		{pack(0xfedc, 100, 0, -1), 0xfedc},
	} {
		if got := IndexFromDiscriminator(tt.d); got != tt.want {
			t.Errorf("IndexFromDiscriminator(%#x) = %#x, want %#x", tt.d, got, tt.want)
		}
	}
}
