package pprofout_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/testutil"
)

const dataDir = "../../testdata/callstack/"

// forkyProfile runs the stages on the real recording: perfscript →
// addrspace → aggregate → symbolize → pprofout.
func forkyProfile(t *testing.T) *profile.Profile {
	f, err := binary.Open(dataDir+"forky", binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	table := addrspace.New(addrspace.Binary{}, nil)
	a := aggregate.NewStacks([]aggregate.StackBinary{f}, table)
	in, err := os.Open(dataDir + "forky.default-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	s := perfscript.NewScanner(in, "forky script")
	for s.Next() {
		if r := s.Record(); r.Kind != record.KindSample {
			table.Update(r)
		} else if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	sym, err := symbolize.New(d, symbolize.Options{PreferredBase: f.PreferredBase()})
	if err != nil {
		t.Fatal(err)
	}
	bin := pprofout.Binary{Path: "forky", BuildID: "abcd", Start: 0x1000, Limit: 0x2000, Offset: 0x1000, Symbolizer: sym}
	p := pprofout.Build(a.Counts(), []pprofout.Binary{bin})
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	return p
}

// flatByFunction sums samples by the physical (outermost) function of the
// leaf location, as pprof -noinlines does.
func flatByFunction(p *profile.Profile) map[string]int64 {
	m := map[string]int64{}
	for _, s := range p.Sample {
		lines := s.Location[0].Line
		if len(lines) > 0 {
			m[lines[len(lines)-1].Function.Name] += s.Value[0]
		}
	}
	return m
}

func TestForkyFlatCountsMatchPerfReport(t *testing.T) {
	p := forkyProfile(t)
	got := flatByFunction(p)
	// testdata/callstack/forky.report.txt
	for fn, want := range map[string]int64{"spin": 172, "leaf": 22, "syscalls": 1} {
		if got[fn] != want {
			t.Errorf("flat %s = %d, want %d", fn, got[fn], want)
		}
	}
	if len(p.SampleType) != 2 || p.SampleType[1].Type != "cpu" || p.SampleType[1].Unit != "nanoseconds" {
		t.Errorf("sample types = %v, want samples/count and cpu/nanoseconds", p.SampleType)
	}
}

func TestForkyInlinedFrames(t *testing.T) {
	p := forkyProfile(t)
	for _, l := range p.Location {
		if len(l.Line) == 2 && l.Line[0].Function.Name == "mix" {
			if f := l.Line[0].Function; f.StartLine != 12 || f.Filename == "" {
				t.Errorf("mix: start line %d, file %q; want 12 and a file", f.StartLine, f.Filename)
			}
			return
		}
	}
	t.Error("no location with mix inlined into its caller")
}

func TestGoToolPprofTop(t *testing.T) {
	goTool := testutil.Tool(t, "go")
	p := forkyProfile(t)
	path := filepath.Join(t.TempDir(), "forky.pb.gz")
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, buf.Bytes(), 0o644)
	out, err := exec.Command(goTool, "tool", "pprof", "-top", "-noinlines", "-sample_index=samples", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^\s*(\d+)\s+[\d.]+%.*\s(spin|leaf)$`).FindAllSubmatch(out, -1)
	got := map[string]int{}
	for _, x := range m {
		got[string(x[2])], _ = strconv.Atoi(string(x[1]))
	}
	if got["spin"] != 172 || got["leaf"] != 22 {
		t.Errorf("go tool pprof -top -noinlines: spin %d leaf %d, want 172 22\n%s", got["spin"], got["leaf"], out)
	}
}

// TestForkyGolden pins the whole profile (pprof's text dump).
func TestForkyGolden(t *testing.T) {
	p := forkyProfile(t)
	got := []byte(p.String())
	golden := filepath.Join("testdata", "forky.pprof.txt")
	if testutil.Update() {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("profile differs from %s (rerun with -update)", golden)
	}
}

// TestWriteParseRoundTrip writes the gzipped profile and reads it back.
func TestWriteParseRoundTrip(t *testing.T) {
	p := forkyProfile(t)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := profile.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if q.String() != p.String() {
		t.Error("profile changed in a write/parse round trip")
	}
}

// TestWriteDeterministic: Write gives the same bytes every time, and they
// decode to the profile written.
func TestWriteDeterministic(t *testing.T) {
	p := forkyProfile(t)
	var a, b bytes.Buffer
	if err := pprofout.Write(&a, p); err != nil {
		t.Fatal(err)
	}
	if err := pprofout.Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of one profile differ")
	}
	q, err := profile.Parse(&a)
	if err != nil {
		t.Fatal(err)
	}
	if q.String() != p.String() {
		t.Error("profile changed in a Write/Parse round trip")
	}
}
