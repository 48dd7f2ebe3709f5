package instrprof

import (
	"bytes"
	"testing"
)

// TestDecoderULEB128: the numbers a Decoder reads, and where and how it
// fails: a number ends within ten bytes (bits past the 64th dropped), an
// eleventh byte is too long, a number that runs out is truncated.
func TestDecoderULEB128(t *testing.T) {
	tests := []struct {
		in      []byte
		want    uint64
		wantOff int
		wantErr string
	}{
		{[]byte{0x7f, 9}, 0x7f, 1, ""},
		{[]byte{0xe5, 0x8e, 0x26}, 624485, 3, ""},
		{append(bytes.Repeat([]byte{0xff}, 9), 0x7f), 1<<64 - 1, 10, ""},
		{[]byte{0x80, 0x80}, 0, 2, "f: offset 0x12: truncated n: need 1 bytes, 0 left"},
		{[]byte{}, 0, 0, "f: offset 0x10: truncated n: need 1 bytes, 0 left"},
		{bytes.Repeat([]byte{0x80}, 10), 0, 10, "f: offset 0x1a: truncated n: need 1 bytes, 0 left"},
		{append(bytes.Repeat([]byte{0x80}, 10), 0), 0, 11, "f: offset 0x1b: n: LEB128 number too long"},
		{bytes.Repeat([]byte{0x80}, 14), 0, 11, "f: offset 0x1b: n: LEB128 number too long"},
	}
	for _, tt := range tests {
		d := Decoder{File: "f", Base: 0x10, Buf: tt.in}
		got := d.ULEB128("n")
		errText := ""
		if d.Err() != nil {
			errText = d.Err().Error()
		}
		if got != tt.want || d.Off != tt.wantOff || errText != tt.wantErr {
			t.Errorf("% x: %#x at %d, %q; want %#x at %d, %q", tt.in, got, d.Off, errText, tt.want, tt.wantOff, tt.wantErr)
		}
	}
}
