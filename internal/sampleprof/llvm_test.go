package sampleprof

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// llvmProfdata returns the path of llvm-profdata-19, skipping the test
// when it is not installed.
func llvmProfdata(t *testing.T) string {
	t.Helper()
	path := testutil.Tool(t, "llvm-profdata-19")
	return path
}

// llvmMerge runs llvm-profdata-19 merge --sample on the inputs and returns
// the output it wrote.
func llvmMerge(t *testing.T, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(llvmProfdata(t), append(append([]string{"merge", "--sample"}, args...), "-o", out)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestBytesMatchLLVM writes each test profile in every format and checks
// the bytes equal llvm-profdata-19's for the same profile.
func TestBytesMatchLLVM(t *testing.T) {
	flags := map[string][]string{
		".txt":           {"--text"},
		".binary":        {"--binary"},
		".extbinary":     {"--extbinary"},
		".md5.extbinary": {"--extbinary", "--use-md5"},
	}
	for _, in := range textInputs(t) {
		p := readTestFile(t, in)
		for _, out := range outputs {
			if !canWrite(p, out.format) {
				continue
			}
			t.Run(filepath.Base(in)+out.suffix, func(t *testing.T) {
				want := llvmMerge(t, append(flags[out.suffix], in)...)
				if got := encode(t, p, out.format, out.opts); !bytes.Equal(got, want) {
					t.Errorf("bytes differ from llvm-profdata-19 merge %v", flags[out.suffix])
				}
			})
		}
	}
}

// TestLLVMReadsOurs converts profgen's binary outputs back to text with
// llvm-profdata-19 and compares with profgen's own reading of them (the
// binary format drops attributes).
func TestLLVMReadsOurs(t *testing.T) {
	for _, in := range textInputs(t) {
		p := readTestFile(t, in)
		for _, f := range []Format{FormatBinary, FormatExtBinary} {
			if !canWrite(p, f) {
				continue
			}
			t.Run(filepath.Base(in)+"."+f.String(), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "prof")
				data := encode(t, p, f, WriteOptions{})
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				text := encode(t, mustRead(t, data), FormatText, WriteOptions{})
				if got := llvmMerge(t, "--text", path); !bytes.Equal(got, text) {
					t.Errorf("llvm-profdata-19 reads back:\n%s\nwant:\n%s", got, text)
				}
			})
		}
	}
}
