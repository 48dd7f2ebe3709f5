package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// benchScript makes n LBR sample lines of 32 entries each for t-pie.bin
// loaded at base, with some variety so that not every sample is the same.
func benchScript(n int, base uint64) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "PERF_RECORD_MMAP2 7/7: [%#x(0x1000) @ 0x1000 fe:00 1234 0]: r-xp /build/t-pie.bin\n", base)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%16x", base+0x159)
		for j := 0; j < 32; j++ {
			st := loops[r.IntN(2)]
			e := st[j%len(st)]
			fmt.Fprintf(&b, " 0x%x/0x%x/P/-/-/%d", e[0]-0x1000+base, e[1]-0x1000+base, r.IntN(20))
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

func BenchmarkAggregate(b *testing.B) {
	bin := "testdata/t-pie.bin"
	data := benchScript(20000, 0x555500001000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		opts := Options{PerfScript: "-", Stdin: bytes.NewReader(data), Binaries: []string{bin}, Output: os.DevNull, SkipSymbolization: true}
		if err := Run(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = io.Discard

// BenchmarkScanGoCompile reads the call stacks of the Go compiler's
// recording natively and aggregates them: the scan alone, without stack
// repair, symbolization or writing.
func BenchmarkScanGoCompile(b *testing.B) {
	opts, bins := openGoCompile(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scanInput(context.Background(), opts, bins); err != nil {
			b.Fatal(err)
		}
	}
}

// openGoCompile returns the options of a pprof conversion of the Go
// compiler's recording ($PROFGEN_TESTDATA/gocompile, which make bench
// makes: scripts/bench.d/05-gocompile-data.sh) and its binary, opened.
func openGoCompile(b *testing.B) (*plan, *binaries) {
	dir := os.Getenv("PROFGEN_TESTDATA") + "/gocompile"
	if _, err := os.Stat(dir + "/perf.data"); err != nil {
		b.Skip("no $PROFGEN_TESTDATA/gocompile/perf.data")
	}
	opts := newPlan(Options{Binaries: []string{dir + "/compile"}, PerfData: dir + "/perf.data", Format: "pprof", Output: os.DevNull, Quiet: true})
	bins, err := openBinaries(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(bins.Close)
	return opts, bins
}
