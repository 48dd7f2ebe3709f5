package sampleprof

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// randomProfile builds a profile with shared names, ties in totals and
// counts, discriminators, nested inlinees and a few huge counts.
func randomProfile(r *rand.Rand) *Profile {
	names := make([]string, 4+r.IntN(40))
	for i := range names {
		names[i] = randomName(r)
	}
	p := NewProfile()
	for range 1 + r.IntN(30) {
		f := p.Function(names[r.IntN(len(names))])
		f.HeadSamples = randomCount(r)
		fillFunction(r, f, names, 0)
	}
	return p
}

func fillFunction(r *rand.Rand, f *FunctionSamples, names []string, depth int) {
	f.TotalSamples = randomCount(r)
	for range r.IntN(8) {
		loc := LineLocation{uint32(r.IntN(20)), uint32(r.IntN(3)) * uint32(r.IntN(5))}
		rec := f.Record(loc)
		rec.Samples = randomCount(r)
		for range r.IntN(3) {
			f.AddCallTarget(loc, names[r.IntN(len(names))], randomCount(r))
		}
	}
	if depth < 3 {
		for range r.IntN(3) {
			loc := LineLocation{uint32(r.IntN(20)), uint32(r.IntN(2))}
			fillFunction(r, f.Inlinee(loc, names[r.IntN(len(names))]), names, depth+1)
		}
	}
}

func randomCount(r *rand.Rand) uint64 {
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return 1<<63 + r.Uint64N(1<<62)
	}
	return r.Uint64N(1000)
}

func randomName(r *rand.Rand) string {
	const first = "abcdefgh_ZN"
	const rest = "abcdefgh_0123456789<>."
	b := []byte{first[r.IntN(len(first))]}
	for range r.IntN(12) {
		b = append(b, rest[r.IntN(len(rest))])
	}
	if r.IntN(8) == 0 {
		b = append(b, "::x"...)
	}
	if r.IntN(10) == 0 {
		b = append(b, ".__uniq.42"...)
	}
	return string(b)
}

// TestRandomProfilesMatchLLVM writes random profiles as text, has
// llvm-profdata-19 convert that text to every format and compares its
// bytes with profgen's writers on the same profile.
func TestRandomProfilesMatchLLVM(t *testing.T) {
	llvmProfdata(t)
	flags := map[string][]string{
		".txt":           {"--text"},
		".binary":        {"--binary"},
		".extbinary":     {"--extbinary"},
		".md5.extbinary": {"--extbinary", "--use-md5"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 6 {
		p := randomProfile(r)
		text := encode(t, p, FormatText, WriteOptions{})
		in := filepath.Join(t.TempDir(), "in.txt")
		if err := os.WriteFile(in, text, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, out := range outputs {
			want := llvmMerge(t, append(flags[out.suffix], in)...)
			if got := encode(t, p, out.format, out.opts); !bytes.Equal(got, want) {
				t.Errorf("profile %d%s: bytes differ from llvm-profdata-19's; profile:\n%s", i, out.suffix, text)
			}
		}
	}
}

// TestRandomMergeMatchesLLVM merges random profiles with weights and
// compares with llvm-profdata-19 merge --sample --weighted-input.
func TestRandomMergeMatchesLLVM(t *testing.T) {
	llvmProfdata(t)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 3 {
		dst := NewProfile()
		var args []string
		for j := range 3 {
			p := randomProfile(r)
			w := 1 + r.Uint64N(5)
			var over *CounterOverflowError
			if err := Merge(dst, p, w); err != nil && !errors.As(err, &over) {
				t.Fatal(err)
			}
			in := filepath.Join(t.TempDir(), "in.prof")
			if err := os.WriteFile(in, encode(t, p, outputs[j%len(outputs)].format, WriteOptions{}), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "--weighted-input="+strconv.FormatUint(w, 10)+","+in)
		}
		want := llvmMerge(t, append([]string{"--extbinary"}, args...)...)
		if got := encode(t, dst, FormatExtBinary, WriteOptions{}); !bytes.Equal(got, want) {
			t.Errorf("merge %d differs from llvm-profdata-19's", i)
		}
	}
}
