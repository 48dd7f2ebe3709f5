package sampleprof

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

const csText = "testdata/cs/flat.txt"

// TestCSRoundTrip reads a flat CS profile in text and writes it back, as
// text and through extbinary, byte for byte; llvm-profgen-19's extbinary of
// the same profile reads as the same text.
func TestCSRoundTrip(t *testing.T) {
	want, err := os.ReadFile(csText)
	if err != nil {
		t.Fatal(err)
	}
	p := readTestFile(t, csText)
	if !p.CS || p.Functions["main:15 @ insert"] == nil || p.Functions["main:15 @ insert"].Name != "insert" {
		t.Fatalf("CS contexts not read: cs=%v", p.CS)
	}
	if got := encode(t, p, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
		t.Errorf("text round trip:\n%s", got)
	}
	ext := encode(t, p, FormatExtBinary, WriteOptions{})
	if got := encode(t, mustRead(t, ext), FormatText, WriteOptions{}); !bytes.Equal(got, want) {
		t.Errorf("extbinary round trip:\n%s", got)
	}
	llvm := readTestFile(t, "testdata/cs/flat.extbinary")
	if got := encode(t, llvm, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
		t.Errorf("llvm-profgen-19's extbinary reads as:\n%s", got)
	}
	var b bytes.Buffer
	if err := WriteBinary(&b, p); err == nil {
		t.Error("the binary format took a CS profile (LLVM refuses it)")
	}
}

// TestCSMatchesLLVM: llvm-profdata-19 reads profgen's CS extbinary back to
// the same text; llvm-profdata-19 merge of the text gives profgen's
// sections but for the function metadata, which LLVM lists in its hash
// table's order (same entries).
func TestCSMatchesLLVM(t *testing.T) {
	want, err := os.ReadFile(csText)
	if err != nil {
		t.Fatal(err)
	}
	p := readTestFile(t, csText)
	ext := encode(t, p, FormatExtBinary, WriteOptions{})
	path := filepath.Join(t.TempDir(), "ours.extbinary")
	if err := os.WriteFile(path, ext, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := llvmMerge(t, "--text", path); !bytes.Equal(got, want) {
		t.Errorf("llvm-profdata-19 reads back:\n%s", got)
	}
	llvmExt := llvmMerge(t, "--extbinary", csText)
	ours, theirs := extSectionsOf(t, ext), extSectionsOf(t, llvmExt)
	if len(ours) != len(theirs) {
		t.Fatalf("%d sections, llvm %d", len(ours), len(theirs))
	}
	for i := range ours {
		o, l := ours[i], theirs[i]
		if o.typ != l.typ || o.flags != l.flags || len(o.data) != len(l.data) || (o.typ != secFuncMetadata && !bytes.Equal(o.data, l.data)) {
			t.Errorf("section %d (type %d flags %#x) differs from llvm-profdata-19's (type %d flags %#x)", i, o.typ, o.flags, l.typ, l.flags)
		}
	}
}

type rawSection struct {
	typ, flags uint64
	data       []byte
}

// extSectionsOf splits an extbinary profile into its sections.
func extSectionsOf(t *testing.T, data []byte) []rawSection {
	t.Helper()
	d := &decoder{data: data}
	if readHeader(d) != FormatExtBinary {
		t.Fatalf("not extbinary: %v", d.err)
	}
	var out []rawSection
	for _, h := range readSecHeaders(d) {
		out = append(out, rawSection{h.typ, h.flags, data[h.offset : h.offset+h.size]})
	}
	return out
}
