package dwarfread

import (
	"debug/dwarf"
	"errors"
	"testing"
)

// abbrevCU declares abbreviation 1: a compile unit without children and
// with a DW_AT_stmt_list.
var abbrevCU = []byte{1, 0x11, 0, 0x10, 0x17, 0, 0, 0}

// unitInfo is a DWARF 4 .debug_info of one unit: the unit DIE of
// abbrevCU, then tail.
func unitInfo(tail ...byte) []byte {
	body := append([]byte{4, 0, 0, 0, 0, 0, 8, 1, 0, 0, 0, 0}, tail...)
	return append([]byte{byte(len(body)), 0, 0, 0}, body...)
}

// readDIEs counts the entries NewReader returns up to the end or an
// error.
func readDIEs(d *dwarf.Data) (int, error) {
	r := NewReader(d)
	for n := 0; ; n++ {
		e, err := r.Next()
		if err != nil || e == nil {
			return n, err
		}
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name    string
		info    []byte
		entries int
		wantErr error
	}{
		{"one unit DIE", unitInfo(), 1, nil},
		{"padded with three nulls", unitInfo(0, 0, 0), 4, nil},
		{"an abbreviation code past the unit's end", unitInfo(0x80, 0x80), 1 + maxNulls, ErrStuck},
	}
	for _, tt := range tests {
		d, err := dwarf.New(abbrevCU, nil, nil, tt.info, nil, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := readDIEs(d)
		if n != tt.entries || !errors.Is(err, tt.wantErr) {
			t.Errorf("%s: %d entries, %v; want %d, %v", tt.name, n, err, tt.entries, tt.wantErr)
		}
	}
}

// FuzzReader reads arbitrary units of abbrevCU's abbreviations: the
// reader ends, never loops.
func FuzzReader(f *testing.F) {
	f.Add(unitInfo(0x80, 0x80))
	f.Add(unitInfo(1, 0, 0, 0, 0))
	f.Fuzz(func(t *testing.T, tail []byte) {
		if len(tail) > 200 {
			return
		}
		if d, err := dwarf.New(abbrevCU, nil, nil, unitInfo(tail...), nil, nil, nil, nil); err == nil {
			readDIEs(d)
		}
	})
}
