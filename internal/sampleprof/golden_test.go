package sampleprof

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// outputs are the encodings the golden and round-trip tests cover, by the
// golden file suffix.
var outputs = []struct {
	suffix string
	format Format
	opts   WriteOptions
}{
	{".txt", FormatText, WriteOptions{}},
	{".binary", FormatBinary, WriteOptions{}},
	{".extbinary", FormatExtBinary, WriteOptions{}},
	{".md5.extbinary", FormatExtBinary, WriteOptions{UseMD5: true}},
}

func textInputs(t testing.TB) []string {
	in, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(in) == 0 {
		t.Fatalf("no testdata/*.txt: %v", err)
	}
	return in
}

func readTestFile(t testing.TB, path string) *Profile {
	t.Helper()
	p, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func encode(t testing.TB, p *Profile, f Format, o WriteOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := o.Write(&b, p, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, in := range textInputs(t) {
		p := readTestFile(t, in)
		base := strings.TrimSuffix(filepath.Base(in), ".txt")
		for _, out := range outputs {
			if !canWrite(p, out.format) {
				continue
			}
			t.Run(base+out.suffix, func(t *testing.T) {
				got := encode(t, p, out.format, out.opts)
				checkGolden(t, filepath.Join("testdata", "golden", base+out.suffix), got)
			})
		}
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	testutil.Golden(t, path, got)
}

// TestRoundTrip checks write → read → write gives the same bytes.
func TestRoundTrip(t *testing.T) {
	for _, in := range textInputs(t) {
		p := readTestFile(t, in)
		for _, out := range outputs {
			if !canWrite(p, out.format) {
				continue
			}
			t.Run(filepath.Base(in)+out.suffix, func(t *testing.T) {
				first := encode(t, p, out.format, out.opts)
				q := mustRead(t, first)
				if out.opts.UseMD5 {
					// Names become hashes, which sort by value: the
					// order changes once, as with llvm-profdata.
					if !q.MD5 {
						t.Error("MD5 profile read back without MD5 names")
					}
					first = encode(t, q, out.format, out.opts)
					q = mustRead(t, first)
				}
				if second := encode(t, q, out.format, out.opts); !bytes.Equal(first, second) {
					t.Error("write → read → write changed the bytes")
				}
			})
		}
	}
}

func mustRead(t *testing.T, data []byte) *Profile {
	t.Helper()
	p, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadLLVMFiles reads profiles that llvm-profgen-19 and llvm-profdata-19
// wrote and writes them back byte for byte.
func TestReadLLVMFiles(t *testing.T) {
	tests := []struct {
		file, want string // want: llvm-profdata-19 merge of file, same format
		format     Format
		opts       WriteOptions
	}{
		{"testdata/profgen.extbinary", "", FormatExtBinary, WriteOptions{}},
		{"testdata/symlist.extbinary", "", FormatExtBinary, WriteOptions{}},
		{"testdata/profgen.binary", "", FormatBinary, WriteOptions{}},
		{"testdata/profgen-fs.extbinary", "", FormatExtBinary, WriteOptions{}},
		{"testdata/profgen-preinlined.extbinary", "", FormatExtBinary, WriteOptions{}},
		{"testdata/profgen.symlist.extbinary", "", FormatExtBinary, WriteOptions{}},
		{"testdata/md5.extbinary", "testdata/md5.rewritten.extbinary", FormatExtBinary, WriteOptions{UseMD5: true}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			in, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			want := in
			if tt.want != "" {
				if want, err = os.ReadFile(tt.want); err != nil {
					t.Fatal(err)
				}
			}
			p := mustRead(t, in)
			if got := encode(t, p, tt.format, tt.opts); !bytes.Equal(got, want) {
				t.Errorf("rewriting %s: bytes differ from llvm-profdata-19's", tt.file)
			}
		})
	}
}

// TestGoldenMatchesLLVMProfgen compares profgen's outputs for the profile
// of testdata/profgen.txt with what llvm-profgen-19 wrote for the same
// perf script (default, --format=binary, --use-md5).
func TestGoldenMatchesLLVMProfgen(t *testing.T) {
	for _, suffix := range []string{".extbinary", ".binary", ".md5.extbinary"} {
		want, err := os.ReadFile("testdata/profgen" + suffix)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile("testdata/golden/profgen" + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("golden/profgen%s differs from llvm-profgen-19's output", suffix)
		}
	}
}

// canWrite tells whether a format can hold p: the binary format has no
// room for pseudo-probe checksums.
func canWrite(p *Profile, f Format) bool {
	return !p.ProbeBased || f != FormatBinary
}

// TestReadProbeProfile reads llvm-profgen-19's extbinary of a pseudo-probe
// binary and compares with its text output: checksums included.
func TestReadProbeProfile(t *testing.T) {
	p := readTestFile(t, "testdata/profgen-probe.extbinary")
	want, err := os.ReadFile("testdata/profgen-probe.prof.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !p.ProbeBased {
		t.Error("not read as probe-based")
	}
	if got := encode(t, p, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestExtBinaryKeepsMetadata checks that checksums and attributes survive
// extbinary (the text of a profile read back equals the original text).
func TestExtBinaryKeepsMetadata(t *testing.T) {
	for _, in := range []string{"testdata/profgen-probe.prof.txt", "testdata/profgen-preinlined.prof.txt"} {
		want, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		p := mustRead(t, encode(t, mustRead(t, want), FormatExtBinary, WriteOptions{}))
		if got := encode(t, p, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
			t.Errorf("%s through extbinary:\n%s", in, got)
		}
	}
}
