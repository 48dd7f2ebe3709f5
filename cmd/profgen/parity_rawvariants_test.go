package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
)

// Raw profiles of 32-bit and big-endian programs, which the installed
// toolchains cannot make (no 32-bit or big-endian profile runtime), made
// here by hand in the raw format's layout (InstrProfData.inc): a header of
// 16 words (version 10), 14 (version 9) or 11 (version 8); binary ids;
// per-function data records whose pointers are the program's pointer
// size; counters; names; value profile data. Every number is in the
// program's byte order. The same profile in versions 8 and 9, which
// llvm-profdata 19 and 22 refuse, and 10, which they read, shows what
// profgen makes of the older raws.

type rawVariant struct {
	order   binary.AppendByteOrder
	ptr     int // pointer size
	version int
	// zeroCounters gives the first function no counters (LLVM's
	// malformed-num-counters-zero).
	zeroCounters bool
}

// rawFunc is a function of the hand-made profiles.
type rawFunc struct {
	name   string
	hash   uint64
	addr   uint64 // the function's address (indirect-call targets)
	counts []uint64
	calls  []uint64 // targets of its one indirect-call site (none: no site)
}

var rawFuncs = []rawFunc{
	{name: "main", hash: 0x1234, addr: 0x1000, counts: []uint64{5, 2, 3}, calls: []uint64{0x2000, 0x2000, 0x2000, 0x1000}},
	{name: "foo", hash: 0x99, addr: 0x2000, counts: []uint64{3}},
}

type rawWriter struct {
	rawVariant
	b []byte
}

func (w *rawWriter) u64(vs ...uint64) {
	for _, v := range vs {
		w.b = w.order.AppendUint64(w.b, v)
	}
}

func (w *rawWriter) u32(v uint32) { w.b = w.order.AppendUint32(w.b, v) }
func (w *rawWriter) u16(v uint16) { w.b = w.order.AppendUint16(w.b, v) }

func (w *rawWriter) ptrv(v uint64) {
	if w.ptr == 4 {
		w.u32(uint32(v))
	} else {
		w.u64(v)
	}
}

func (w *rawWriter) pad8() {
	for len(w.b)%8 != 0 {
		w.b = append(w.b, 0)
	}
}

// recordSize is the data record size of the variant.
func (v rawVariant) recordSize() int {
	size := 16 + 3*v.ptr + 4 + 2*2 // hashes, 3 pointers, counter count, 2 site counts
	if v.version >= 9 {
		size += v.ptr + 4 // bitmap pointer, bitmap byte count
	}
	if v.version >= 10 {
		size += 2 + 2 // a third site count, padding
	}
	return (size + 7) &^ 7
}

func (v rawVariant) bytes() []byte {
	w := &rawWriter{rawVariant: v}
	magic := uint64(0xff6c70726f667281) // "\xfflprofr\x81" (64-bit)
	if v.ptr == 4 {
		magic = 0xff6c70726f665281 // "\xfflprofR\x81"
	}
	id := []byte{0xab, 0xcd, 0xef, 0x01, 0x23}
	idsSize := uint64(8 + 8)
	names := "\x08\x00main\x01foo" // uncompressed size, compressed size 0, names
	numCounters := uint64(0)
	for _, f := range rawFuncs {
		numCounters += uint64(len(f.counts))
	}
	dataSize := uint64(len(rawFuncs) * v.recordSize())
	countersDelta := dataSize // the counters follow the records
	header := []uint64{magic, uint64(v.version), idsSize, uint64(len(rawFuncs)), 0, numCounters, 0}
	if v.version >= 9 {
		header = append(header, 0, 0) // bitmap bytes and padding
	}
	header = append(header, uint64(len(names)), countersDelta)
	if v.version >= 9 {
		header = append(header, 0) // bitmap delta
	}
	header = append(header, 0) // names delta
	if v.version >= 10 {
		header = append(header, 0, 0) // vtables
	}
	kindLast := uint64(instrprof.ValueMemOPSize)
	if v.version >= 10 {
		kindLast = instrprof.ValueVTable
	}
	header = append(header, kindLast)
	w.u64(header...)
	w.u64(uint64(len(id)))
	w.b = append(w.b, id...)
	w.pad8()
	off := uint64(0)
	for i, f := range rawFuncs {
		start := len(w.b)
		w.u64(instrprof.NameRef(f.name), f.hash)
		w.ptrv(countersDelta - uint64(i*v.recordSize()) + 8*off)
		if v.version >= 9 {
			w.ptrv(0)
		}
		w.ptrv(f.addr)
		w.ptrv(0)
		if i == 0 && v.zeroCounters {
			w.u32(0)
		} else {
			w.u32(uint32(len(f.counts)))
		}
		w.u16(uint16(min(len(f.calls), 1)))
		w.u16(0)
		switch v.version {
		case 9:
			w.u32(0) // bitmap bytes
		case 10:
			w.u16(0)
			w.b = append(w.b, 0, 0)
			w.u32(0)
		}
		for len(w.b)-start < v.recordSize() {
			w.b = append(w.b, 0)
		}
		off += uint64(len(f.counts))
	}
	for _, f := range rawFuncs {
		w.u64(f.counts...)
	}
	w.b = append(w.b, names...)
	w.pad8()
	for _, f := range rawFuncs {
		if len(f.calls) > 0 {
			w.valueData(f.calls)
		}
	}
	return w.b
}

// valueData appends the value profile of one indirect-call site.
func (w *rawWriter) valueData(calls []uint64) {
	counts := map[uint64]uint64{}
	var order []uint64
	for _, c := range calls {
		if counts[c] == 0 {
			order = append(order, c)
		}
		counts[c]++
	}
	w.u32(uint32(8 + 16 + 16*len(order))) // total size
	w.u32(1)                              // value kinds
	w.u32(instrprof.ValueIndirectCall)
	w.u32(1) // sites
	w.b = append(w.b, byte(len(order)), 0, 0, 0, 0, 0, 0, 0)
	for _, c := range order {
		w.u64(c, counts[c])
	}
}

// rawVariantFile writes the variant's profile once per test run.
func rawVariantFile(t *testing.T, name string) string {
	variants := map[string]rawVariant{
		"le64": {order: binary.LittleEndian, ptr: 8, version: 10}, "le32": {order: binary.LittleEndian, ptr: 4, version: 10},
		"be64": {order: binary.BigEndian, ptr: 8, version: 10}, "be32": {order: binary.BigEndian, ptr: 4, version: 10},
		"be32v8": {order: binary.BigEndian, ptr: 4, version: 8}, "le32v8": {order: binary.LittleEndian, ptr: 4, version: 8},
		"le64v8": {order: binary.LittleEndian, ptr: 8, version: 8},
		"le64v9": {order: binary.LittleEndian, ptr: 8, version: 9}, "be32v9": {order: binary.BigEndian, ptr: 4, version: 9},
		"le64zero": {order: binary.LittleEndian, ptr: 8, version: 10, zeroCounters: true},
	}
	v, ok := variants[name]
	if !ok {
		t.Fatalf("no raw variant %s", name)
	}
	indexedOnce.Do(func() { indexedDir, _ = os.MkdirTemp("", "parity") })
	path := filepath.Join(indexedDir, fmt.Sprintf("%s.profraw", name))
	if _, err := os.Stat(path); err != nil {
		if err := os.WriteFile(path, v.bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestRawVariantsAgree: the hand-made raws hold the same profile in every
// word size, byte order and version, so profgen merges each to the same
// text (llvm-profdata-14 maps no indirect-call target of a big-endian
// 32-bit raw; -19 and -22 read no version 8 or 9).
func TestRawVariantsAgree(t *testing.T) {
	var want string
	for _, v := range []string{"le64", "le32", "be64", "be32", "le32v8", "be32v8", "le64v8", "le64v9", "be32v9"} {
		out := filepath.Join(t.TempDir(), "out.txt")
		if _, stderr, err := runInProcess([]string{"merge", "--text", "-o", out, rawVariantFile(t, v)}); err != nil {
			t.Fatalf("%s: %v\n%s", v, err, stderr)
		}
		got := string(readFile(t, out))
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s merges to\n%s\nle64 to\n%s", v, got, want)
		}
	}
}
