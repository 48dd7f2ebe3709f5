package dwarfread

import (
	"debug/dwarf"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// v5Table is a DWARF 5 line table whose directory and file lists have
// the given entry formats ((content type, form) pairs) and counts, each
// entry's bytes being entry; its program is one end_sequence.
func v5Table(dirForms []byte, dirs uint64, fileForms []byte, files uint64, entry []byte) []byte {
	var hdr []byte
	hdr = append(hdr, 1, 1, 1, 0xfb, 14, 13)              // min_inst, max_ops, default_is_stmt, line_base, line_range, opcode_base
	hdr = append(hdr, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1) // standard_opcode_lengths
	for _, l := range []struct {
		forms []byte
		count uint64
	}{{dirForms, dirs}, {fileForms, files}} {
		hdr = append(hdr, byte(len(l.forms)/2))
		hdr = append(hdr, l.forms...)
		hdr = binary.AppendUvarint(hdr, l.count)
		for range min(l.count, 4) {
			hdr = append(hdr, entry...)
		}
	}
	var t []byte
	t = binary.LittleEndian.AppendUint16(t, 5)
	t = append(t, 8, 0) // address size, segment selector size
	t = binary.LittleEndian.AppendUint32(t, uint32(len(hdr)))
	t = append(t, hdr...)
	t = append(t, 0, 1, 1) // end_sequence
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(t))), t...)
}

const (
	lnctPath  = 1
	formData1 = 0x0b
	formStr   = 0x08
)

func TestBoundedLine(t *testing.T) {
	tests := []struct {
		name  string
		table []byte
		want  bool
	}{
		{"two dirs and files of a string each", v5Table([]byte{lnctPath, formStr}, 2, []byte{lnctPath, formStr}, 2, []byte("a\x00")), true},
		{"no files", v5Table([]byte{lnctPath, formStr}, 1, nil, 0, []byte("/\x00")), true},
		{"2^60 dirs of an empty format", v5Table(nil, 1<<60, nil, 0, nil), false},
		{"2^40 dirs of a byte each", v5Table([]byte{lnctPath, formData1}, 1<<40, nil, 0, []byte{1}), false},
		{"more files than header bytes", v5Table(nil, 0, []byte{lnctPath, formData1}, 100, []byte{1}), false},
		{"a form line headers do not hold", v5Table([]byte{lnctPath, 0x10}, 1, nil, 0, []byte{1, 2, 3, 4}), false},
		{"truncated header", v5Table(nil, 0, nil, 0, nil)[:12], true}, // length past the section: LineReader's to refuse
		{"DWARF 4 left to LineReader", append([]byte{20, 0, 0, 0, 4, 0}, make([]byte, 20)...), true},
	}
	for _, tt := range tests {
		if got := BoundedLine(tt.table, 0); got != tt.want {
			t.Errorf("%s: BoundedLine = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// unitDWARF is a DWARF 4 unit whose line table is at offset 0 of line.
func unitDWARF(line []byte) (*dwarf.Data, error) {
	abbrev := []byte{1, 0x11, 0, 0x10, 0x17, 0, 0, 0} // compile_unit, no children, stmt_list sec_offset
	info := []byte{12, 0, 0, 0, 4, 0, 0, 0, 0, 0, 8, 1, 0, 0, 0, 0}
	return dwarf.New(abbrev, nil, nil, info, line, nil, nil, nil)
}

// readAll reads the rows of the unit's line table with LineReader and NextLine.
func readAll(d *dwarf.Data, line []byte) (int, error) {
	cu, err := d.Reader().Next()
	if err != nil || cu == nil {
		return 0, errors.New("no unit")
	}
	lr, err := LineReader(d, cu, line)
	if err != nil || lr == nil {
		return 0, err
	}
	var le dwarf.LineEntry
	for n := 0; ; n++ {
		if err := NextLine(lr, &le); err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return n, err
		}
	}
}

func TestLineReader(t *testing.T) {
	tests := []struct {
		name    string
		table   []byte
		rows    int
		wantErr error
	}{
		{"bounded", v5Table([]byte{lnctPath, formStr}, 1, []byte{lnctPath, formStr}, 1, []byte("a\x00")), 1, nil},
		{"2^40 dirs", v5Table([]byte{lnctPath, formData1}, 1<<40, nil, 0, []byte{1}), 0, ErrMalformedLines},
	}
	for _, tt := range tests {
		d, err := unitDWARF(tt.table)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := readAll(d, tt.table)
		if rows != tt.rows || !errors.Is(err, tt.wantErr) {
			t.Errorf("%s: %d rows, %v; want %d, %v", tt.name, rows, err, tt.rows, tt.wantErr)
		}
	}
}

// FuzzLineReader gives arbitrary line tables to LineReader and NextLine: rows or an
// error, never a panic, a hang or all memory.
func FuzzLineReader(f *testing.F) {
	f.Add(v5Table([]byte{lnctPath, formStr}, 2, []byte{lnctPath, formStr}, 2, []byte("a\x00")))
	f.Add(v5Table([]byte{lnctPath, formData1}, 1<<40, nil, 0, []byte{1}))
	f.Fuzz(func(t *testing.T, line []byte) {
		ReadLineHeader(line, 0, 8)
		d, err := unitDWARF(line)
		if err != nil {
			return
		}
		readAll(d, line)
	})
}
