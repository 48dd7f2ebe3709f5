package driver

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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

// TestGoPprofWithoutDWARF: a Go binary stripped of its DWARF (as
// go build -ldflags=-w leaves it) still gives the pprof its full frames,
// from the pclntab: the same locations, lines and functions as with its
// DWARF.
func TestGoPprofWithoutDWARF(t *testing.T) {
	objcopy := testutil.Tool(t, "objcopy")
	dir := testutil.DataDir(t, "nonpie")
	stripped := filepath.Join(t.TempDir(), "nonpiego") // the name the recording maps
	if out, err := exec.Command(objcopy, "--strip-debug", filepath.Join(dir, "nonpiego"), stripped).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	opts := Options{PerfData: filepath.Join(dir, "nonpiego.perf.data"), Binaries: []string{filepath.Join(dir, "nonpiego")}, Format: "pprof"}
	want := parsePprof(t, convert(t, opts))
	opts.Binaries = []string{stripped}
	got := parsePprof(t, convert(t, opts))
	if g, w := locationLines(got), locationLines(want); !slices.Equal(g, w) {
		t.Errorf("without DWARF, %d locations; with it, %d; first differing: %v", len(g), len(w), firstDiff(g, w))
	}
}

// locationLines renders each location's frames (function, file, start
// line, line), in order.
func locationLines(p *profile.Profile) []string {
	var out []string
	for _, l := range p.Location {
		s := fmt.Sprintf("%#x:", l.Address)
		for _, ln := range l.Line {
			s += fmt.Sprintf(" %s %s:%d(%d)", ln.Function.Name, ln.Function.Filename, ln.Line, ln.Function.StartLine)
		}
		out = append(out, s)
	}
	return out
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " | " + b[i]
		}
	}
	return ""
}

// TestGoPprofMalformedPclntab: a Go binary whose pclntab header does not
// hold together is symbolized from its DWARF, with one warning naming
// the file and the section's offset.
func TestGoPprofMalformedPclntab(t *testing.T) {
	dir := testutil.DataDir(t, "nonpie")
	data, err := os.ReadFile(filepath.Join(dir, "nonpiego"))
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sec := ef.Section(".gopclntab")
	binary.LittleEndian.PutUint64(data[sec.Offset+8:], 1<<40) // more functions than the section holds
	bin := filepath.Join(t.TempDir(), "nonpiego")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	opts := Options{PerfData: filepath.Join(dir, "nonpiego.perf.data"), Binaries: []string{bin}, Format: "pprof",
		Output: filepath.Join(t.TempDir(), "out.pprof"), Stderr: &stderr}
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("profgen: warning: %s: .gopclntab at offset %#x: malformed header; Go code symbolized from DWARF\n", bin, sec.Offset)
	if got := stderr.String(); strings.Count(got, "warning") != 1 || !strings.Contains(got, want) {
		t.Errorf("stderr %q, want one warning, %q", got, want)
	}
	out, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	if p := parsePprof(t, out); len(p.Sample) == 0 {
		t.Error("no samples")
	}
}
