package sampleprof

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/testutil"
)

// manyTargets is a text profile of one body line with n call targets,
// every name given twice (the later count replaces the earlier, as in LLVM).
func manyTargets(n int) string {
	var b strings.Builder
	b.WriteString("main:100:1\n 1: 100")
	for round := range 2 {
		for i := range n {
			fmt.Fprintf(&b, " f%d:%d", i, i+round)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// TestManyCallTargets: 1M call targets on one line parse in linear time
// (llvm-profdata-19 takes 2.8 s; the old linear search took minutes).
func TestManyCallTargets(t *testing.T) {
	const n = 1 << 20
	text := manyTargets(n)
	start := testutil.CPUTime()
	p, err := ReadText(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if d := testutil.CPUTime() - start; d > 5*time.Second {
		t.Errorf("parsing %d call targets took %v of CPU, want < 5s", n, d)
	}
	ts := p.Functions["main"].Body[LineLocation{1, 0}].CallTargets
	if len(ts) != n || ts["f0"] != 1 || ts[fmt.Sprintf("f%d", n-1)] != uint64(n) {
		t.Errorf("%d targets, f0=%d; want %d, the later count of each", len(ts), ts["f0"], n)
	}
}

// compressedSection is a section of typ whose content, n bytes of a
// ULEB128 count then zeros (made without holding them), is zlib
// compressed.
func compressedSection(typ uint64, count uint64, n int) *section {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	head := binary.AppendUvarint(nil, count)
	w.Write(head)
	zeros := make([]byte, 1<<20)
	for left := n - len(head); left > 0; left -= len(zeros) {
		w.Write(zeros[:min(left, len(zeros))])
	}
	w.Close()
	var e encoder
	e.uleb(uint64(n))
	e.uleb(uint64(z.Len()))
	e.buf = append(e.buf, z.Bytes()...)
	return &section{typ: typ, flags: secFlagCompress, data: e.buf}
}

// TestExtBinaryBombs: compressed sections declaring 2^30 empty names or
// 1 GiB of an unknown section fail with the file offset of the section,
// under a 2 GiB address-space limit, within 20 s; a name table of 16M
// empty names, within the limit, is read.
func TestExtBinaryBombs(t *testing.T) {
	if !testutil.Limited(t, 2<<30, 20*time.Second) {
		return
	}
	tests := []struct {
		name string
		sec  *section
		want string // "" for success
	}{
		{"2^30 empty names", compressedSection(secNameTable, 1<<30, 1<<30+5), "compression bomb"},
		{"1 GiB unknown section", compressedSection(0x99, 0, 1<<30), "compression bomb"},
		{"16M empty names", compressedSection(secNameTable, 16<<20, 16<<20+4), ""},
	}
	for _, tt := range tests {
		file := extBinaryFile([]*section{tt.sec}, []*section{tt.sec})
		_, err := ReadBinary(file)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300):
			t.Errorf("%s: error %v, want one line naming %q", tt.name, err, tt.want)
		}
		t.Logf("%s (%d-byte file): %v", tt.name, len(file), err)
	}
}

// TestLongBadLine: a 10 MB damaged line is quoted in at most 80 bytes,
// with the file and line.
func TestLongBadLine(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	tests := []struct {
		text string
		want string
	}{
		{long + "\n", `<input>:1: expected 'mangled_name:NUM:NUM', found "xxxx`},
		{"main:1:1\n 1: " + long + "\n", `<input>:2: expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found " 1: xxx`},
		{"main:1:1\n !" + long + "\n", `<input>:2: expected '!CFGChecksum: NUM' or '!Attributes: NUM', found "!xxx`},
		{"main:1:1\n 1: 1 é" + long + "\n", `xx"... (10485768 bytes)`},
	}
	for _, tt := range tests {
		_, err := ReadText(strings.NewReader(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300 {
			t.Errorf("error %.300v, want one of at most 300 characters with %q", err, tt.want)
		}
	}
}
