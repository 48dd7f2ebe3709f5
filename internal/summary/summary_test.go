package summary

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestWrite(t *testing.T) {
	p := sampleprof.NewProfile()
	p.Function("_ZN4work8checksumEPKjm").TotalSamples = 300
	p.Function("_ZN4work8checksumEPKjm").HeadSamples = 10
	p.Function("main").TotalSamples = 100
	p.Function("_ZNSt6vectorIjSaIjEEC2EmRKS0_").TotalSamples = 100
	var buf bytes.Buffer
	if err := Write(&buf, p, 2); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/summary.golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, buf.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", buf.Bytes(), want)
	}
}
