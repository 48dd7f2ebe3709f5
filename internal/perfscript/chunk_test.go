package perfscript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/testutil"
)

// dumpChunked dumps the records of the input parsed chunk by chunk, as the
// parallel driver does, with the stats summed; whole cuts the input as a
// mapped file (NewChunkerOf), else as a stream.
func dumpChunked(t *testing.T, data []byte, size int, whole bool) string {
	var b strings.Builder
	ch := NewChunker(strings.NewReader(string(data)), size)
	if whole {
		ch = NewChunkerOf(data, size, nil)
	}
	offset, pidColumn, failed := 0, false, false
	var sum record.Stats
	eachChunk(t, ch, func(c Chunk) {
		if c.Offset != offset || string(c.Data) != string(data[offset:offset+len(c.Data)]) {
			t.Fatalf("chunk %d at offset %d: not the input's bytes from %d", c.Index, c.Offset, offset)
		}
		offset += len(c.Data)
		if failed {
			return
		}
		before := pidColumn
		pidColumn = c.Events("in", pidColumn, func(*record.Record) {})
		s := NewChunkScanner(c, "in", before)
		var part strings.Builder
		if err := dumpRecords(&part, s); err != nil {
			fmt.Fprintf(&b, "%serror: %v\n", part.String(), err)
			failed = true
			return
		}
		b.WriteString(part.String())
		st := s.Stats()
		sum.Lines += st.Lines
		sum.SkippedLines += st.SkippedLines
		sum.SkippedRecords += st.SkippedRecords
	})
	if failed {
		return b.String()
	}
	fmt.Fprintf(&b, "stats lines=%d skipped-lines=%d skipped-records=%d\n", sum.Lines, sum.SkippedLines, sum.SkippedRecords)
	return b.String()
}

// eachChunk calls fn with each chunk ch cuts, then recycles it.
func eachChunk(t testing.TB, ch *Chunker, fn func(Chunk)) {
	for {
		c, err := ch.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(c)
		ch.Recycle(c)
	}
}

// TestChunkedEqualsSequential: parsed in chunks of any size, every input
// gives the records (line numbers included) and stats of one pass.
func TestChunkedEqualsSequential(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.script")
	files = append(files, "../../testdata/callstack/forky.default.script", "../../testdata/callstack/forky.pid-ip-sym-dso-srcline.script")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		if err := dump(&want, NewScanner(strings.NewReader(string(data)), "in")); err != nil {
			continue // the error inputs: sequential only
		}
		for _, size := range []int{1, 100, 4096, 1 << 20} {
			for _, whole := range []bool{false, true} {
				if got := dumpChunked(t, data, size, whole); got != want.String() {
					t.Errorf("%s in chunks of %d (whole %v) differs:\n%s", f, size, whole, firstDiffLine(want.String(), got))
				}
			}
		}
	}
}

func firstDiffLine(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n want %s\n got  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}

// TestChunkedBigScripts: the same on the large traces of make testdata.
func TestChunkedBigScripts(t *testing.T) {
	dir := testutil.DataDir(t)
	for _, f := range []string{"lbr/sqlite/hybrid.script", "lbr/sqlite/fork-full.script", "lbr/wordfreq/hybrid-multi.script",
		"callstack/big.script", "nonpie/nonpiego.script"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Log(err)
			continue
		}
		var want strings.Builder
		if err := dump(&want, NewScanner(strings.NewReader(string(data)), "in")); err != nil {
			t.Fatal(err)
		}
		for _, whole := range []bool{false, true} {
			if got := dumpChunked(t, data, 256<<10, whole); got != want.String() {
				t.Errorf("%s in chunks (whole %v) differs:\n%s", f, whole, firstDiffLine(want.String(), got))
			}
		}
	}
}

// TestChunkerOfReleases: a recycled chunk of a whole input releases the
// pages it spans and faultAround bytes on either side.
func TestChunkerOfReleases(t *testing.T) {
	data, err := os.ReadFile("../../testdata/callstack/forky.default.script")
	if err != nil {
		t.Fatal(err)
	}
	var released [][2]int
	base := &data[0]
	release := func(b []byte) {
		start := int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(base)))
		released = append(released, [2]int{start, start + len(b)})
	}
	var chunks []Chunk
	eachChunk(t, NewChunkerOf(data, 10000, release), func(c Chunk) { chunks = append(chunks, c) })
	if len(released) != len(chunks) {
		t.Fatalf("%d chunks released %d times", len(chunks), len(released))
	}
	for i, c := range chunks {
		want := [2]int{max(c.Offset-faultAround, 0) &^ 4095, min(c.Offset+len(c.Data)+faultAround, len(data))}
		if released[i] != want {
			t.Errorf("chunk [%d, %d) released %v, want %v", c.Offset, c.Offset+len(c.Data), released[i], want)
		}
	}
}

// FuzzChunker: cut either way, the chunks are the input's bytes in order,
// each where its offset says.
func FuzzChunker(f *testing.F) {
	for _, data := range testScripts(f) {
		f.Add(data, uint16(100))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		for _, ch := range []*Chunker{NewChunker(strings.NewReader(string(data)), int(size)+1), NewChunkerOf(data, int(size)+1, nil)} {
			var got []byte
			eachChunk(t, ch, func(c Chunk) {
				if c.Offset != len(got) || len(c.Data) == 0 {
					t.Fatalf("chunk %d: offset %d, %d bytes, after %d bytes", c.Index, c.Offset, len(c.Data), len(got))
				}
				got = append(got, c.Data...)
			})
			if string(got) != string(data) {
				t.Fatalf("the chunks are not the input")
			}
		}
	})
}

func TestIndexRecord(t *testing.T) {
	many := strings.Repeat("a_b ", 1000)
	tests := []string{
		"", "PERF_RECORD_", "xPERF_RECORD_MMAP", "_PERF_RECORD_", "PERF_RECORD", "ERF_RECORD_", "_ERF_RECORD_",
		"a_b PERF_X PERF_RECORD_COMM", many + "PERF_RECORD_EXIT", many, many + "PERF_RECORD", "PERF" + many + "PERF_RECORD_",
		"_\n PERF_RECORD_FORK", "PERF_PERF_RECORD_",
	}
	for _, in := range tests {
		if got, want := indexRecord([]byte(in)), strings.Index(in, "PERF_RECORD_"); got != want {
			t.Errorf("indexRecord(%.40q) = %d, want %d", in, got, want)
		}
	}
}

func FuzzIndexRecord(f *testing.F) {
	f.Add([]byte("a_b PERF_X PERF_RECORD_COMM"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := indexRecord(data), bytes.Index(data, []byte("PERF_RECORD_")); got != want {
			t.Fatalf("indexRecord(%q) = %d, want %d", data, got, want)
		}
	})
}
