package raw

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/testutil"
)

// withNames returns the raw profile file with its names section replaced
// by names (header NamesSize fixed, later sections moved).
func withNames(t testing.TB, file string, names []byte) []byte {
	b, err := os.ReadFile(filepath.Join("..", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	d := &instrprof.Decoder{File: file, Buf: b}
	h, err := readHeader(d)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := h.sections()
	out := append([]byte(nil), b[:l.names]...)
	out = append(out, names...)
	out = append(out, make([]byte, pad8(uint64(len(names))))...)
	out = append(out, b[l.vtables:]...)
	binary.LittleEndian.PutUint64(out[namesSizeAt(h.FormatVersion()):], uint64(len(names)))
	return out
}

// namesSizeAt is the byte offset of NamesSize in a header of version v.
func namesSizeAt(v int) int {
	if v == 8 {
		return 7 * 8
	}
	return 9 * 8
}

// separators is a compressed names chunk of n separators (n a multiple of
// 1 MiB), made without holding them.
func separators(n int) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	mib := bytes.Repeat([]byte{1}, 1<<20)
	for range n >> 20 {
		w.Write(mib)
	}
	w.Close()
	out := binary.AppendUvarint(nil, uint64(n))
	out = binary.AppendUvarint(out, uint64(z.Len()))
	return append(out, z.Bytes()...)
}

// TestNamesBomb: a names chunk inflating to 1 GiB (or 64 MiB) of
// separators from a ~1 MB (65 KB) raw fails with the file and offset of the
// chunk, under a 2 GiB address-space limit, within 20 s. One inflating to
// 16 MiB (within the limit) is read as a stream in little memory.
func TestNamesBomb(t *testing.T) {
	if !testutil.Limited(t, 2<<30, 20*time.Second) {
		return
	}
	tests := []struct {
		name    string
		size    int
		wantErr bool
	}{
		{"1GiB", 1 << 30, true},
		{"64MiB", 64 << 20, true},
		{"16MiB", 16 << 20, false},
	}
	for _, tt := range tests {
		b := withNames(t, "plain19.profraw", separators(tt.size))
		var r Reader
		_, err := r.Read("bomb.profraw", b, func(*instrprof.Record, uint64, int64) error { return nil })
		var fe *instrprof.FormatError
		switch {
		case !tt.wantErr && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr && (!errors.As(err, &fe) || !strings.Contains(err.Error(), "compression bomb")):
			t.Errorf("%s: error %v, want a FormatError naming a compression bomb", tt.name, err)
		case tt.wantErr && len(err.Error()) > 300:
			t.Errorf("%s: error of %d characters", tt.name, len(err.Error()))
		}
		t.Logf("%s (%d-byte file): %v", tt.name, len(b), err)
	}
}

// TestCounterPtrOutOfRange: a correlation record whose counters lie
// outside __llvm_prf_cnts fails with the binary and the record's offset
// (it was skipped without a word; llvm-profdata-19 fails too).
func TestCounterPtrOutOfRange(t *testing.T) {
	h := &Header{Version: 10, NumCounters: 2}
	rec := func(ptr uint64) []byte {
		b := make([]byte, 64)
		binary.LittleEndian.PutUint64(b[8:], 0xabc) // function hash
		binary.LittleEndian.PutUint64(b[16:], ptr)
		binary.LittleEndian.PutUint32(b[48:], 1) // counters
		return b
	}
	for _, tt := range []struct {
		ptr  uint64
		want string
	}{
		{0x1000, ""},
		{0x1008, ""},
		{0x1010, "app: offset 0x240: __llvm_covdata record 1 (function hash 0xabc): CounterPtr 0x1010 out of range [0x1000, 0x1010)"},
		{0xfff, "CounterPtr 0xfff out of range"},
	} {
		c := &Correlation{Path: "app", covdataOff: 0x200, cntsAddr: 0x1000, cntsSize: 16,
			covdata: append(rec(0x1000), rec(tt.ptr)...)}
		_, err := c.decode(h)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CounterPtr %#x: error %v, want %q", tt.ptr, err, tt.want)
		}
	}
}

// TestCorrelationNamesBomb: a correlation binary whose __llvm_covnames
// inflates to 1 GiB of separators (1.6 GB of memory at 64 MiB before)
// fails with the binary, the section and the chunk's offset, under a
// 2 GiB address-space limit within 20 s.
func TestCorrelationNamesBomb(t *testing.T) {
	objcopy := testutil.Tool(t, "objcopy")
	if !testutil.Limited(t, 2<<30, 20*time.Second) {
		return
	}
	dir := t.TempDir()
	sections := map[string][]byte{
		"__llvm_covdata":  make([]byte, 64),
		"__llvm_prf_cnts": make([]byte, 8),
		"__llvm_covnames": separators(1 << 30),
	}
	args := []string{}
	for name, b := range sections {
		path := filepath.Join(dir, name)
		os.WriteFile(path, b, 0o644)
		args = append(args, "--add-section", name+"="+path)
	}
	bin := filepath.Join(dir, "app")
	args = append(args, filepath.Join("..", "..", "binary", "testdata", "clang-pie.elf"), bin)
	if out, err := exec.Command(objcopy, args...).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	_, err := OpenCorrelation(bin)
	if err == nil || !strings.Contains(err.Error(), bin+"(__llvm_covnames): offset 0x") || !strings.Contains(err.Error(), "compression bomb") {
		t.Errorf("error %v, want the binary, section, offset and a compression bomb", err)
	}
	t.Log(err)
}

// TestLargeCounter: a counter above 2^56 is read, and noted at its offset
// as llvm's reader warns of it; 2^56 itself is a count.
func TestLargeCounter(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "ir19-1.profraw"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := readHeader(&instrprof.Decoder{File: "ir19-1", Buf: b})
	if err != nil {
		t.Fatal(err)
	}
	l, err := h.sections()
	if err != nil {
		t.Fatal(err)
	}
	last := int(l.counters) + 8*int(h.NumCounters-1)
	for _, tt := range []struct {
		count uint64
		want  string
	}{
		{maxCounter, ""},
		{maxCounter + 1, fmt.Sprintf("ir19-1: offset %#x: excessively large counter value suggests corrupted profile data: %d", last, uint64(maxCounter+1))},
		{^uint64(0), "excessively large counter value"},
	} {
		buf := bytes.Clone(b)
		binary.LittleEndian.PutUint64(buf[last:], tt.count)
		var r Reader
		var read uint64
		info, err := r.Read("ir19-1", buf, func(rec *instrprof.Record, _ uint64, _ int64) error {
			read = max(read, slices.Max(rec.Counts))
			return nil
		})
		if err != nil || read != tt.count {
			t.Errorf("counter %d: read %d, %v", tt.count, read, err)
		}
		large := info.LargeCounter
		if (tt.want == "") != (large == nil) || (large != nil && !strings.Contains(large.Error(), tt.want)) {
			t.Errorf("counter %d: LargeCounter %v, want %q", tt.count, large, tt.want)
		}
	}
}
