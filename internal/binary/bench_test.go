package binary

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// benchBinary is the binary the benchmarks use: $PROFGEN_BENCH_BINARY (a
// large unstripped binary) when set, else a checked-in one.
func benchBinary(b *testing.B) *File {
	path := os.Getenv("PROFGEN_BENCH_BINARY")
	if path == "" {
		path = filepath.Join("testdata", "gcc-cet.elf")
	}
	f, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

// sampleInsts picks n instructions spread over the binary (decoding the
// ranges they are in), shuffled so lookups do not walk memory in order.
func sampleInsts(b *testing.B, f *File, n int) []Inst {
	var all []Inst
	for in := range f.Insts(0, ^uint64(0)) {
		all = append(all, in)
	}
	if len(all) == 0 {
		b.Skip("no code")
	}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]Inst, n)
	for i := range out {
		out[i] = all[r.IntN(len(all))]
	}
	return out
}

func BenchmarkIsCode(b *testing.B) {
	f := benchBinary(b)
	insts := sampleInsts(b, f, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !f.IsCode(insts[i&(len(insts)-1)].Addr) {
			b.Fatal("not code")
		}
	}
}

func BenchmarkInst(b *testing.B) {
	f := benchBinary(b)
	insts := sampleInsts(b, f, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := f.Inst(insts[i&(len(insts)-1)].Addr); !ok {
			b.Fatal("not code")
		}
	}
}

// BenchmarkCrossesUncondBranch checks ranges of 64 bytes, a typical
// fall-through length between two taken branches.
func BenchmarkCrossesUncondBranch(b *testing.B) {
	f := benchBinary(b)
	insts := sampleInsts(b, f, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := insts[i&(len(insts)-1)].Addr
		f.CrossesUncondBranch(a, a+64)
	}
}

// BenchmarkDecodeAll measures cold decoding: every range, once.
func BenchmarkDecodeAll(b *testing.B) {
	path := os.Getenv("PROFGEN_BENCH_BINARY")
	if path == "" {
		path = filepath.Join("testdata", "gcc-cet.elf")
	}
	var bytes int64
	for i := 0; i < b.N; i++ {
		f, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		c := f.code
		for j := range c.starts {
			c.code(j)
			bytes += int64(c.ends[j] - c.starts[j])
		}
		f.Close()
	}
	b.SetBytes(bytes / int64(b.N))
}
