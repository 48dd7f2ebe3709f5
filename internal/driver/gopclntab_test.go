package driver

import (
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

// TestGoPprofFromPclntab: the pprof of a Go program's call stacks,
// symbolized from its pclntab (the default) and from its DWARF
// (--go-dwarf), holds the same samples, and the functions both name have
// the same start lines; the pclntab names the file of every Go function,
// where Go's DWARF leaves the inlined ones without.
func TestGoPprofFromPclntab(t *testing.T) {
	dir := testutil.DataDir(t, "nonpie")
	opts := Options{PerfData: filepath.Join(dir, "nonpiego.perf.data"), Binaries: []string{filepath.Join(dir, "nonpiego")}, Format: "pprof"}
	fromPclntab := parsePprof(t, convert(t, opts))
	opts.GoDWARF = true
	fromDWARF := parsePprof(t, convert(t, opts))
	if a, b := sampleTotal(fromPclntab), sampleTotal(fromDWARF); a != b || a == 0 {
		t.Errorf("samples: %d from the pclntab, %d from DWARF", a, b)
	}
	startLines := map[string]map[int64]bool{} // several: an ABI wrapper has its function's name
	for _, fn := range fromDWARF.Function {
		if startLines[fn.Name] == nil {
			startLines[fn.Name] = map[int64]bool{}
		}
		startLines[fn.Name][fn.StartLine] = true
	}
	unnamed, goFuncs := 0, 0
	for _, fn := range fromPclntab.Function {
		if want, ok := startLines[fn.Name]; ok && !want[0] && !want[fn.StartLine] {
			t.Errorf("%s: start line %d, DWARF says %v", fn.Name, fn.StartLine, want)
		}
		if fn.StartLine != 0 { // a Go function: the pclntab has its start line
			goFuncs++
			if fn.Filename == "" {
				t.Errorf("%s: no file", fn.Name)
			}
		}
	}
	for _, fn := range fromDWARF.Function {
		if fn.StartLine != 0 && fn.Filename == "" {
			unnamed++
		}
	}
	if goFuncs == 0 || unnamed == 0 {
		t.Errorf("%d Go functions from the pclntab; %d without file from DWARF (none: the test no longer shows the difference)", goFuncs, unnamed)
	}
}

func parsePprof(t *testing.T, data []byte) *profile.Profile {
	t.Helper()
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sampleTotal(p *profile.Profile) int64 {
	var n int64
	for _, s := range p.Sample {
		n += s.Value[0]
	}
	return n
}
