package sampleprof

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"os"
	"slices"
	"testing"
)

// TestReadCompressed reads an extbinary whose sections llvm-profdata-19
// compressed (--compress-all-sections) and compares with the plain one.
func TestReadCompressed(t *testing.T) {
	p := readTestFile(t, "testdata/compressed.extbinary")
	if len(p.SymbolList) != 4 {
		t.Errorf("symbol list %v, want 4 names", p.SymbolList)
	}
	p.SymbolList = nil
	want, err := os.ReadFile("testdata/golden/inline.extbinary")
	if err != nil {
		t.Fatal(err)
	}
	if got := encode(t, p, FormatExtBinary, WriteOptions{}); !bytes.Equal(got, want) {
		t.Error("compressed profile reads differently from the plain one")
	}
}

// TestReadULEBMD5Names reads a name table of ULEB128 MD5s (the variable
// length form older writers used), made by rewriting a fixed-length one.
func TestReadULEBMD5Names(t *testing.T) {
	fixed, err := os.ReadFile("testdata/md5.extbinary")
	if err != nil {
		t.Fatal(err)
	}
	d := &decoder{data: fixed}
	readHeader(d)
	hs := readSecHeaders(d)
	if d.err != nil {
		t.Fatal(d.err)
	}
	want := mustRead(t, fixed)
	// Re-encode the name table with ULEB128s and fix the header table.
	var layout []*section
	for _, h := range hs {
		s := &section{typ: h.typ, flags: h.flags, data: fixed[h.offset : h.offset+h.size]}
		if h.typ == secNameTable {
			s.flags &^= secFlagFixedLengthMD5
			nd := &decoder{data: s.data}
			n := nd.uleb()
			var e encoder
			e.uleb(n)
			for range n {
				e.uleb(binary.LittleEndian.Uint64(nd.data[nd.pos:]))
				nd.pos += 8
			}
			s.data = e.buf
		}
		layout = append(layout, s)
	}
	onDisk := slices.Clone(layout)
	slices.SortStableFunc(onDisk, func(a, b *section) int {
		return cmp.Compare(offsetOf(hs, layout, a), offsetOf(hs, layout, b))
	})
	got := mustRead(t, extBinaryFile(layout, onDisk))
	if !got.MD5 || !bytes.Equal(encode(t, got, FormatText, WriteOptions{}), encode(t, want, FormatText, WriteOptions{})) {
		t.Error("ULEB128 MD5 name table read differently")
	}
}

// offsetOf returns the on-disk sort key of s, an element of layout: its
// offset, an empty section sorting before a full one at the same offset.
func offsetOf(hs []secHeader, layout []*section, s *section) uint64 {
	h := hs[slices.Index(layout, s)]
	return h.offset*2 + min(h.size, 1)
}
