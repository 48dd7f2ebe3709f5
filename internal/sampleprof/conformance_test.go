package sampleprof

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTextReaderConformance mutates the test profiles at random (fixed
// seed) and checks that profgen's text reader accepts exactly what
// llvm-profdata-19 accepts, and reads it to the same profile.
//
// One LLVM quirk is not copied: a header line of digits only and no colon
// ("0000") is a function named by the digits there; profgen reports it.
func TestTextReaderConformance(t *testing.T) {
	llvm := llvmProfdata(t)
	seeds := textInputs(t)
	r := rand.New(rand.NewPCG(11, 13))
	const alphabet = " :.0123456789\nab!#@[]~-+\t"
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.txt"), filepath.Join(dir, "out.txt")
	for i := range 60 {
		src, err := os.ReadFile(seeds[r.IntN(len(seeds))])
		if err != nil {
			t.Fatal(err)
		}
		data := mutate(r, src, alphabet)
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(out)
		llvmErr := exec.Command(llvm, "merge", "--sample", "--text", in, "-o", out).Run()
		want, _ := os.ReadFile(out)
		p, err := ReadText(bytes.NewReader(data))
		if (llvmErr != nil) != (err != nil) {
			t.Errorf("input %d %q: llvm-profdata-19 error %v, profgen error %v", i, data, llvmErr, err)
			continue
		}
		if err == nil {
			if got := encode(t, p, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
				t.Errorf("input %d %q: read as\n%s\nllvm-profdata-19:\n%s", i, data, got, want)
			}
		}
	}
}

// mutate inserts, deletes or replaces one to three bytes of src.
func mutate(r *rand.Rand, src []byte, alphabet string) []byte {
	b := bytes.Clone(src)
	for range 1 + r.IntN(3) {
		pos := r.IntN(len(b))
		c := alphabet[r.IntN(len(alphabet))]
		switch r.IntN(3) {
		case 0:
			b = append(b[:pos], append([]byte{c}, b[pos:]...)...)
		case 1:
			b = append(b[:pos], b[pos+1:]...)
		default:
			b[pos] = c
		}
	}
	return b
}
