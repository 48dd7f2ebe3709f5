package perfdatafile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const forkyData = "../../testdata/callstack/forky.perf.data"

func readForky(t testing.TB) []byte {
	b, err := os.ReadFile(forkyData)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll reads every record and decodes those profgen uses.
func readAll(r *Reader) (map[uint32]int, error) {
	counts := map[uint32]int{}
	var s Sample
	for r.Next() {
		rec := r.Record()
		counts[rec.Type]++
		var err error
		switch rec.Type {
		case RecordSample:
			err = r.ParseSample(rec, &s)
			if t, ok, terr := r.SampleTime(rec); err == nil && (terr != nil || ok != s.HasTime || t != s.Time) {
				return counts, fmt.Errorf("SampleTime %d %v %v, ParseSample %d %v", t, ok, terr, s.Time, s.HasTime)
			}
		case RecordMmap, RecordMmap2:
			_, err = r.ParseMmap(rec)
		case RecordComm:
			_, err = r.ParseComm(rec)
		case RecordFork, RecordExit:
			_, err = r.ParseTask(rec)
		}
		if err == nil && rec.Type != RecordSample && rec.Type < RecordHeaderAttr {
			_, err = r.ParseSampleID(rec)
		}
		if err != nil {
			return counts, err
		}
	}
	return counts, r.Err()
}

func TestForky(t *testing.T) {
	r, err := Open(forkyData)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.Attrs) != 1 || r.Attrs[0].Name != "cpu-clock" || r.Attrs[0].SampleType&SampleCallchain == 0 {
		t.Errorf("attrs %+v", r.Attrs[0])
	}
	counts, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	// perf report -D -i forky.perf.data counts the same.
	if counts[RecordSample] != 221 || counts[RecordMmap2] == 0 || counts[RecordFork] == 0 {
		t.Errorf("record counts %v", counts)
	}
	found := false
	for _, b := range r.BuildIDs {
		found = found || (strings.HasSuffix(b.Path, "/forky") && len(b.Hex()) == 40)
	}
	if !found {
		t.Errorf("no build id of forky in %v", r.BuildIDs)
	}
	// perf report --header-only: "# cmdline : /usr/bin/perf record -q ... -- sh -c ./forky ..."
	if c := r.Cmdline; len(c) != 14 || c[1] != "record" || c[11] != "sh" || !strings.HasPrefix(c[13], "./forky 40000000 2") {
		t.Errorf("cmdline %q", c)
	}
}

// TestCmdlineCut: a CMDLINE feature whose strings run past its end is an
// error naming the feature.
func TestCmdlineCut(t *testing.T) {
	r := &Reader{name: "f"}
	b := le.AppendUint32(le.AppendUint32(nil, 2), 8)
	b = append(b, "record\x00\x00"...)
	b = le.AppendUint32(b, 64)
	if r.feature(FeatCmdline, b, 100); r.err == nil || !strings.Contains(r.err.Error(), "CMDLINE feature: string 1 of 2 cut short") {
		t.Errorf("error %v", r.err)
	}
	r.err = nil
	if r.feature(FeatCmdline, b[:4+4+8], 100); r.err == nil {
		t.Errorf("2 strings in the room of 1: no error")
	}
}

// TestCompressed: a perf record -z recording (several compressed records
// with rounds between them) holds the samples perf report -D counts.
func TestCompressed(t *testing.T) {
	r, err := Open("testdata/compressed.perf.data")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	counts, err := readAll(r)
	if err != nil || counts[RecordSample] != 191 || counts[RecordFinishedRound] == 0 {
		t.Errorf("counts %v, err %v; want 191 samples", counts, err)
	}
}

// TestPipeMode: the same records from the stream form of the file: the
// header of 16 bytes, the attribute as a HEADER_ATTR record, then the data.
func TestPipeMode(t *testing.T) {
	file := readForky(t)
	stream := pipeForm(t, file)
	want, err := OpenBytes(file, "file")
	if err != nil {
		t.Fatal(err)
	}
	wc, err := readAll(want)
	if err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (*Reader, error){
		"OpenBytes": func() (*Reader, error) { return OpenBytes(stream, "pipe") },
		"NewReader": func() (*Reader, error) { return NewReader(bytes.NewReader(stream), "pipe") },
	} {
		r, err := open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(r)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(wc) || !r.Pipe || r.Attrs[0].SampleType != want.Attrs[0].SampleType {
			t.Errorf("%s: %v %v, want %v", name, got, err, wc)
		}
	}
}

// pipeForm rewrites a file-mode perf.data as a pipe-mode stream.
func pipeForm(t testing.TB, file []byte) []byte {
	h, err := readFileHeader(file, "f")
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(magic), 16, 0, 0, 0, 0, 0, 0, 0)
	for off := h.attrs.off; off < h.attrs.off+h.attrs.size; off += h.attrSize {
		attr := file[off : off+h.attrSize-16]
		idOff, idSize := le.Uint64(file[off+h.attrSize-16:]), le.Uint64(file[off+h.attrSize-8:])
		size := 8 + len(attr) + int(idSize)
		out = le.AppendUint32(out, RecordHeaderAttr)
		out = le.AppendUint16(le.AppendUint16(out, 0), uint16(size))
		out = append(append(out, attr...), file[idOff:idOff+idSize]...)
	}
	return append(out, file[h.data.off:h.data.off+h.data.size]...)
}

// TestHostile: lengths and offsets that no file can hold fail with an
// error naming the byte offset, quickly and with bounded memory.
func TestHostile(t *testing.T) {
	good := readForky(t)
	h, _ := readFileHeader(good, "f")
	first := int(h.data.off)
	tests := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"data size", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[48:], 1<<64-1); return b }, "perf.data header at byte 40: data section"},
		{"attr size", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[16:], 1<<40); return b }, "perf.data header at byte 16: attribute entry size"},
		{"record size 0", func(b []byte) []byte { binary.LittleEndian.PutUint16(b[first+6:], 0); return b }, fmt.Sprintf("at byte %d: record size 0", first)},
		{"cut", func(b []byte) []byte { return b[:first+3] }, fmt.Sprintf("perf.data header at byte 40: data section")},
		{"magic", func(b []byte) []byte { copy(b, "PERFILE3"); return b }, "not a perf.data file"},
		{"big endian", func(b []byte) []byte { copy(b, magicSwap); return b }, "big-endian"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.edit(append([]byte(nil), good...))
			r, err := OpenBytes(b, "bad.data")
			if err == nil {
				_, err = readAll(r)
			}
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestSampleTooLong: a call chain or branch stack longer than its record
// is an error at the record's offset.
func TestSampleTooLong(t *testing.T) {
	a := &Attr{SampleType: SampleIP | SampleCallchain | SampleBranchStack, Name: "x"}
	r := newReader("s.data", &bytesSource{})
	r.addAttr(a)
	for _, body := range [][]byte{
		le.AppendUint64(le.AppendUint64(nil, 0x1000), 1<<60),            // chain of 2^60 entries
		le.AppendUint64(le.AppendUint64(le.AppendUint64(nil, 1), 0), 5), // 5 branches, none there
	} {
		rec := &Record{Type: RecordSample, Data: append(make([]byte, 8), body...), Offset: 4096}
		var s Sample
		if err := r.ParseSample(rec, &s); err == nil || !strings.Contains(err.Error(), "s.data: at byte 4096: record type 9: sample:") {
			t.Errorf("err = %v", err)
		}
	}
}

// TestSampleTime: the time alone, from the fields before it; a record cut
// before its time is an error, fields after it are not looked at.
func TestSampleTime(t *testing.T) {
	u64s := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = le.AppendUint64(b, v)
		}
		return b
	}
	tests := []struct {
		name    string
		typ     uint64
		body    []byte
		want    uint64
		wantOK  bool
		wantErr bool
	}{
		{"ip tid time", SampleIP | SampleTID | SampleTime, u64s(0x1000, 7<<32|7, 12345), 12345, true, false},
		{"identifier first", SampleIdentifier | SampleIP | SampleTime, u64s(1, 0x1000, 99), 99, true, false},
		{"time first", SampleTime | SampleCallchain, u64s(5, 1<<60), 5, true, false},
		{"no time", SampleIP | SampleTID, u64s(0x1000, 1), 0, false, false},
		{"cut before the time", SampleIP | SampleTID | SampleTime, u64s(0x1000, 1), 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newReader("s.data", &bytesSource{})
			r.addAttr(&Attr{SampleType: tt.typ, Name: "x"})
			rec := &Record{Type: RecordSample, Data: append(make([]byte, 8), tt.body...), Offset: 4096}
			got, ok, err := r.SampleTime(rec)
			if got != tt.want || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("SampleTime = %d, %v, %v; want %d, %v, error %v", got, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
		})
	}
}

func FuzzReader(f *testing.F) {
	good := readForky(f)
	h, _ := readFileHeader(good, "f")
	// the header, the attrs and a few records; and the pipe form
	f.Add(good[:min(len(good), int(h.data.off)+2048)])
	f.Add(pipeForm(f, good)[:4096])
	seeds, _ := filepath.Glob("testdata/*.perf.data")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := OpenBytes(data, "fuzz")
		if err != nil {
			return
		}
		r.MaxDecompressed = 1 << 20
		defer r.Close()
		if _, err := readAll(r); err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

func ExampleReader() {
	r, err := Open(forkyData)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	samples := 0
	for r.Next() {
		if r.Record().Type == RecordSample {
			samples++
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(r.Attrs[0].Name, samples, "samples")
	// Output:
	// cpu-clock 221 samples
}
