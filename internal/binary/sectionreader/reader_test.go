package sectionreader

import (
	"math"
	"testing"
)

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		read func(r *Reader) uint64
		want uint64
		err  string
	}{
		{"u8", []byte{7}, func(r *Reader) uint64 { return uint64(r.U8("x")) }, 7, ""},
		{"u16", []byte{1, 2}, func(r *Reader) uint64 { return uint64(r.U16("x")) }, 0x201, ""},
		{"u32", []byte{1, 2, 3, 4}, func(r *Reader) uint64 { return uint64(r.U32("x")) }, 0x4030201, ""},
		{"u64", []byte{1, 0, 0, 0, 0, 0, 0, 1}, func(r *Reader) uint64 { return r.U64("x") }, 1<<56 | 1, ""},
		{"uleb", []byte{0x80, 1}, func(r *Reader) uint64 { return r.Uint("x", math.MaxUint64) }, 128, ""},
		{"sleb", []byte{0x7f}, func(r *Reader) uint64 { return uint64(r.Int("x")) }, math.MaxUint64, ""},
		{"bytes", []byte{2, 'a', 'b'}, func(r *Reader) uint64 { return uint64(len(r.Bytes(uint64(r.U8("n")), "x"))) }, 2, ""},
		{"truncated u8", nil, func(r *Reader) uint64 { return uint64(r.U8("x")) }, 0, "s+0x0: truncated x"},
		{"truncated u16", []byte{1}, func(r *Reader) uint64 { return uint64(r.U16("x")) }, 0, "s+0x0: truncated x: 1 of 2 bytes"},
		{"truncated u64 after a byte", []byte{1, 2}, func(r *Reader) uint64 { r.U8("a"); return r.U64("x") }, 0, "s+0x1: truncated x: 1 of 8 bytes"},
		{"uleb over max", []byte{0x80, 2}, func(r *Reader) uint64 { return r.Uint("x", 255) }, 0, "s+0x0: x 256 out of range (max 255)"},
		{"truncated uleb", []byte{0x80}, func(r *Reader) uint64 { return r.Uint("x", 255) }, 0, "s+0x0: truncated x"},
		{"bytes beyond the end", []byte{5, 'a'}, func(r *Reader) uint64 { return uint64(len(r.Bytes(uint64(r.U8("n")), "x"))) }, 0, "s+0x1: truncated x: 5 bytes declared, 1 left"},
		{"the first error sticks", []byte{1}, func(r *Reader) uint64 { r.U16("x"); return uint64(r.U8("y")) }, 0, "s+0x0: truncated x: 1 of 2 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New("s", tt.data)
			got := tt.read(r)
			errText := ""
			if r.Err() != nil {
				errText = r.Err().Error()
			}
			if got != tt.want || errText != tt.err || !r.Done() {
				t.Errorf("got %#x, %q, done %v; want %#x, %q", got, errText, r.Done(), tt.want, tt.err)
			}
		})
	}
}
