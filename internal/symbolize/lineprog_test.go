package symbolize

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/dwarfread"
)

// TestLineProgramIsLineReader runs the line table of every unit of the
// test binaries with lineProgram and with debug/dwarf's LineReader: the
// same rows.
func TestLineProgramIsLineReader(t *testing.T) {
	eachDWARFTestBinary(t, func(t *testing.T, ef *elf.File, d *dwarf.Data) {
		s := testDIESections(t, ef)
		hs, ok := readUnitHeaders(bytes.NewReader(s.info))
		if !ok {
			t.Fatal("unit headers")
		}
		run, tables := 0, 0
		for _, h := range hs {
			cu := unitEntry(t, d, h.entry)
			if _, ok := cu.Val(dwarf.AttrStmtList).(int64); !ok {
				continue
			}
			tables++
			want := newLoader(d, nil)
			errWant := want.loadLines(cu)
			got := newLoader(d, nil)
			got.lineSection, got.unitAddrSize = s.line, unitAddrSize(s.info, h.start)
			if _, ok := newLineProgram(s.line, uint64(cu.Val(dwarf.AttrStmtList).(int64)), got.unitAddrSize); ok {
				run++
			}
			errGot := got.loadLines(cu)
			if (errWant == nil) != (errGot == nil) || !slices.Equal(want.lines, got.lines) {
				t.Fatalf("unit at %#x: %d rows (%v), LineReader %d (%v)", h.start, len(got.lines), errGot, len(want.lines), errWant)
			}
		}
		t.Logf("%d of %d line tables run", run, tables)
		if tables > 0 && run == 0 {
			t.Error("no line table run without LineReader")
		}
	})
}

func unitEntry(t *testing.T, d *dwarf.Data, entry dwarf.Offset) *dwarf.Entry {
	t.Helper()
	r := d.Reader()
	r.Seek(entry)
	cu, err := r.Next()
	if err != nil || cu == nil {
		t.Fatalf("unit DIE at %#x: %v", entry, err)
	}
	return cu
}

// FuzzLineProgram runs arbitrary line tables: when lineProgram runs one,
// it gives the rows LineReader gives, and LineReader reads it whole.
func FuzzLineProgram(f *testing.F) {
	for _, path := range dieTestBinaries()[:2] {
		if ef, err := elf.Open(path); err == nil {
			if sec := ef.Section(".debug_line"); sec != nil {
				if b, err := sec.Data(); err == nil {
					f.Add(b[:min(len(b), 4096)])
				}
			}
			ef.Close()
		}
	}
	// One DWARF 4 unit, 8-byte addresses, whose DW_AT_stmt_list is 0.
	abbrev := []byte{1, 0x11, 0, 0x10, 0x17, 0, 0, 0}
	info := binary.LittleEndian.AppendUint32(nil, 2+4+1+1+4)
	info = append(info, 4, 0, 0, 0, 0, 0, 8, 1, 0, 0, 0, 0)
	f.Fuzz(func(t *testing.T, line []byte) {
		d, err := dwarf.New(abbrev, nil, nil, info, line, nil, nil, nil)
		if err != nil {
			return
		}
		cu := unitEntry(t, d, 11)
		checked := newLoader(d, nil)
		checked.lineSection, checked.unitAddrSize = line, 8
		if err := checked.loadLines(cu); errors.Is(err, dwarfread.ErrMalformedLines) {
			got := newLoader(d, nil)
			got.lineSection, got.unitAddrSize = line, 8
			got.runLineProgram(cu) // must not panic either
			return                 // debug/dwarf panics or spins on it: no rows to compare with
		}
		lr, err := d.LineReader(cu)
		if err != nil || lr == nil {
			return
		}
		want := newLoader(d, nil)
		var le dwarf.LineEntry
		seqStart := 0 // as loadLines: rows merge within a sequence only
		for {
			err := dwarfread.NextLine(lr, &le)
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, dwarfread.ErrMalformedLines) {
				return // LineReader panics on a row: nothing to compare with
			}
			if err != nil {
				want = nil
				break
			}
			want.addLineRow(lineRow{addr: le.Address, line: uint32(le.Line), discriminator: uint32(le.Discriminator), endSequence: le.EndSequence}, seqStart)
			if le.EndSequence {
				seqStart = len(want.lines)
			}
		}
		got := newLoader(d, nil)
		got.lineSection, got.unitAddrSize = line, 8
		if !got.runLineProgram(cu) {
			return
		}
		if want == nil {
			t.Fatalf("lineProgram ran a table LineReader refuses: %d rows", len(got.lines))
		}
		if !slices.Equal(want.lines, got.lines) {
			t.Fatalf("rows\n%v\nLineReader\n%v", got.lines, want.lines)
		}
	})
}
