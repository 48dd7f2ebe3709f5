package rawprof

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/testutil"
)

const base = 0x401000

func sample() *aggregate.Counters {
	c := aggregate.NewCounters()
	c.Ranges[aggregate.Range{Start: 0x401110, End: 0x40111f}] = 2
	c.Ranges[aggregate.Range{Start: 0x401110, End: 0x401114}] = 2
	c.Ranges[aggregate.Range{Start: 0x401139, End: 0x401139}] = 1
	c.Branches[record.Branch{From: aggregate.ExternalAddr, To: 0x401110}] = 1
	c.Branches[record.Branch{From: 0x40111f, To: 0x401139}] = 8
	c.Branches[record.Branch{From: 0x401114, To: 0x40111c}] = 2
	return c
}

func TestWriteGolden(t *testing.T) {
	tests := []struct {
		name string
		c    *aggregate.Counters
	}{
		{"sample", sample()},
		{"empty", aggregate.NewCounters()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := Write(&got, tt.c, base); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if testutil.Update() {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("got\n%s\nwant\n%s", got.Bytes(), want)
			}
		})
	}
}

// TestRoundTripLLVM reads llvm-profgen-19's own output and writes it back
// byte for byte.
func TestRoundTripLLVM(t *testing.T) {
	want, err := os.ReadFile("testdata/llvm19-t.raw")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Read(bytes.NewReader(want), "llvm19-t.raw", base)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := Write(&got, c, base); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", got.Bytes(), want)
	}
}

func TestReadSumsBlocks(t *testing.T) {
	in := "1\n10-20:3\n1\n20->10:4\n  1\n  10-20:2\n0\n"
	c, err := Read(strings.NewReader(in), "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Ranges[aggregate.Range{Start: 0x10, End: 0x20}] != 5 || c.Branches[record.Branch{From: 0x20, To: 0x10}] != 4 {
		t.Fatalf("got %v %v", c.Ranges, c.Branches)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2\n10-20:3\n", "x:2: unexpected end of profile: 1 entries missing"},
		{"1\n10-20:3\n", "x:2: unexpected end of profile: want a number of branches"},
		{"1\n10+20:3\n", "x:2: want <hex>-<hex>:<count>"},
		{"x\n", "x:1: want a number of ranges"},
		{"[main]\n", "x:1: context-sensitive"},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "x", 0)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read(bytes.NewReader(data), "fuzz", base)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, c, base); err != nil {
			t.Fatal(err)
		}
		c2, err := Read(bytes.NewReader(out.Bytes()), "again", base)
		if err != nil {
			t.Fatalf("reading written profile: %v", err)
		}
		var out2 bytes.Buffer
		Write(&out2, c2, base)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatal("write-read-write not stable")
		}
	})
}

// TestRoundTripLLVMCS reads llvm-profgen-19's context-sensitive output
// (recurse's hybrid trace) and writes it back byte for byte.
func TestRoundTripLLVMCS(t *testing.T) {
	want, err := os.ReadFile("testdata/llvm19-cs.raw")
	if err != nil {
		t.Fatal(err)
	}
	const pieBase = 0x1000
	ctxs, cs, err := ReadCS(bytes.NewReader(want), "llvm19-cs.raw", pieBase)
	if err != nil || !cs {
		t.Fatalf("cs=%v err=%v", cs, err)
	}
	var got bytes.Buffer
	if err := WriteCS(&got, ctxs, pieBase); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", got.Bytes(), want)
	}
}

func TestReadCSSumsContexts(t *testing.T) {
	in := "[main]\n  1\n  10-20:3\n  0\n[]\n  0\n  1\n  1->10:2\n[main]\n  1\n  10-20:4\n  0\n"
	ctxs, cs, err := ReadCS(strings.NewReader(in), "x", 0)
	if err != nil || !cs || len(ctxs) != 2 {
		t.Fatalf("cs=%v err=%v ctxs=%v", cs, err, ctxs)
	}
	if ctxs[0].Name != "main" || ctxs[0].Counters.Ranges[aggregate.Range{Start: 0x10, End: 0x20}] != 7 || ctxs[1].Name != "" {
		t.Errorf("got %+v", ctxs)
	}
	if _, _, err := ReadCS(strings.NewReader("[main\n0\n0\n"), "x", 0); err == nil || !strings.HasPrefix(err.Error(), "x:1: want a context") {
		t.Errorf("unclosed bracket: %v", err)
	}
}

func FuzzReadCS(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctxs, _, err := ReadCS(bytes.NewReader(data), "fuzz", base)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteCS(&out, ctxs, base); err != nil {
			t.Fatal(err)
		}
		again, cs, err := ReadCS(bytes.NewReader(out.Bytes()), "again", base)
		if err != nil || (!cs && len(ctxs) > 0) {
			t.Fatalf("reading written profile: cs=%v %v", cs, err)
		}
		var out2 bytes.Buffer
		WriteCS(&out2, again, base)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatal("write-read-write not stable")
		}
	})
}

// TestAddressContextName: pseudo-probe contexts are written as
// llvm-profgen writes them (hex offsets from the base, " @ " between) and
// read back; a frame context is not an address context.
func TestAddressContextName(t *testing.T) {
	const base = 0x200000
	for _, tt := range []struct {
		addrs []uint64
		name  string
	}{
		{nil, ""},
		{[]uint64{0x2007f4}, "0x7f4"},
		{[]uint64{0x2007f4, 0x2007bf, 0x200000}, "0x7f4 @ 0x7bf @ 0x0"},
	} {
		if got := AddressContextName(tt.addrs, base); got != tt.name {
			t.Errorf("AddressContextName(%x) = %q, want %q", tt.addrs, got, tt.name)
		}
		back, err := ParseAddressContext(tt.name, base)
		if err != nil || !slices.Equal(back, tt.addrs) {
			t.Errorf("ParseAddressContext(%q) = %x, %v", tt.name, back, err)
		}
	}
	for _, bad := range []string{"main:3 @ foo", "0x7f4 @ foo", "0x", "7f4", "0x7f4 @@ 0x1"} {
		if _, err := ParseAddressContext(bad, base); err == nil {
			t.Errorf("ParseAddressContext(%q) succeeded", bad)
		}
	}
}
