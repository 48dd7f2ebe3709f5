package sampleprof

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds the testdata files matching pattern to the fuzz corpus.
func addSeeds(f *testing.F, patterns ...string) {
	for _, pat := range patterns {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// checkStable writes a profile a reader accepted, reads it back and
// writes it again, twice: the last two writes must agree. (The first may
// differ from them in the order of the function metadata records, which
// follows the order the reader met the functions in, as LLVM's hash map
// does; a profile read from our own output meets them in writing order.)
// An MD5 profile is written with MD5 names: as strings its names would
// sort differently once read back (so would llvm-profdata's).
func checkStable(t *testing.T, p *Profile, format Format) {
	// Context attributes weigh in the stored summary
	// (ContextDuplicatedIntoBase), but the binary format holds none and
	// extbinary only those of top-level functions: the property is checked
	// on what the format can hold.
	for _, f := range p.Functions {
		clearAttributes(f, format == FormatBinary)
	}
	opts := WriteOptions{UseMD5: p.MD5}
	var first bytes.Buffer
	if err := opts.Write(&first, p, format); err != nil {
		return // e.g. a name the format cannot hold
	}
	second := rewrite(t, opts, first.Bytes(), format)
	third := rewrite(t, opts, second, format)
	if !bytes.Equal(second, third) {
		t.Fatalf("%v: write → read → write changed the bytes", format)
	}
}

// rewrite reads our own output and writes it again.
func rewrite(t *testing.T, opts WriteOptions, data []byte, format Format) []byte {
	q, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reading our own %v output: %v", format, err)
	}
	var out bytes.Buffer
	if err := opts.Write(&out, q, format); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func FuzzReadText(f *testing.F) {
	addSeeds(f, "testdata/cs/*", "testdata/*.txt", "testdata/golden/*.txt", "testdata/llvm22/*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadText(bytes.NewReader(data))
		if err != nil {
			return
		}
		checkStable(t, p, FormatBinary)
	})
}

func FuzzReadBinary(f *testing.F) {
	addSeeds(f, "testdata/golden/*.binary")
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadBinary(data)
		if err != nil {
			return
		}
		checkStable(t, p, FormatBinary)
	})
}

func FuzzReadExtBinary(f *testing.F) {
	addSeeds(f, "testdata/*.extbinary", "testdata/cs/*.extbinary", "testdata/golden/*.extbinary", "testdata/llvm22/*.extbinary")
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadBinary(data)
		if err != nil {
			return
		}
		checkStable(t, p, FormatExtBinary)
	})
}

// clearAttributes clears the attributes of f's inlined callees, and f's own
// when self is set.
func clearAttributes(f *FunctionSamples, self bool) {
	if self {
		f.Attributes = 0
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			clearAttributes(c, true)
		}
	}
}
