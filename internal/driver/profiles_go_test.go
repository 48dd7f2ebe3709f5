package driver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestGoProfileToPGO: the CPU profile Go's own runtime/pprof writes of
// a Go program (../contprof/testdata/gocpu), read as addresses only
// (--profile), converts to a pprof profile whose flat samples by function
// equal those of Go's profile, and Go's PGO finds its hot call edge (go
// build -pgo too with PROFGEN_PGO_BUILD=1).
func TestGoProfileToPGO(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	dir := t.TempDir()
	src := "../contprof/testdata/gocpu/main.go"
	exe, prof, out := filepath.Join(dir, "gocpu"), filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "pgo.pprof")
	runTool(t, ".", nil, "go", "build", "-o", exe, src)
	runTool(t, ".", nil, exe, prof)
	res, err := Convert(context.Background(), Options{Profiles: []string{prof}, Binaries: []string{exe},
		Format: "pprof", Output: out, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	got, want := flatByFunction(t, out), flatByFunction(t, prof)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("flat samples by function\n got %v\nwant %v", got, want)
	}
	if res.Samples.Used == 0 {
		t.Errorf("no sample used: %+v", res.Samples)
	}
	checkPGOEdge(t, out, "main.mid", "main.leaf")
	if os.Getenv("PROFGEN_PGO_BUILD") != "" { // a minute: the standard library is built again with the profile
		pgoExe := filepath.Join(dir, "gocpu-pgo")
		runTool(t, ".", nil, "go", "build", "-pgo="+out, "-o", pgoExe, src)
	}
}

// checkPGOEdge checks that Go's PGO, reading the profile as go build -pgo
// does first (go tool preprofile), finds the call edge caller → callee
// with a weight.
func checkPGOEdge(t *testing.T, prof, caller, callee string) {
	t.Helper()
	pre := prof + ".pre"
	runTool(t, ".", nil, "go", "tool", "preprofile", "-i", prof, "-o", pre)
	data, err := os.ReadFile(pre)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i+2 < len(lines); i++ {
		if lines[i] == caller && lines[i+1] == callee && !strings.HasSuffix(lines[i+2], " 0") {
			return
		}
	}
	t.Errorf("go tool preprofile finds no edge %s → %s:\n%s", caller, callee, data)
}

// flatByFunction sums the samples/count of a pprof profile by the
// function of each sample's innermost frame.
func flatByFunction(t *testing.T, path string) map[string]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	vi := -1
	for i, st := range p.SampleType {
		if st.Type == "samples" {
			vi = i
		}
	}
	if vi < 0 {
		t.Fatalf("%s: no samples/count among %v", path, p.SampleType)
	}
	flat := map[string]int64{}
	for _, s := range p.Sample {
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
			flat[s.Location[0].Line[0].Function.Name] += s.Value[vi]
		}
	}
	return flat
}
