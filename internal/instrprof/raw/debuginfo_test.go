package raw

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// probeProgram is a C program of three functions, one static, built by
// the tests with clang-22 -mllvm -profile-correlate=debug-info.
const probeProgram = `
static int helper(int x) { return x % 3 ? x : -x; }
int foo(int x) { if (x & 1) return helper(x); return x / 2; }
int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += foo(i); return s == 12345; }
`

var (
	probeBuildOnce sync.Once
	probeBuildDir  string
)

// probeBinary builds probeProgram with the debug flags given (once per
// flag set and test run) and returns the binary's path.
func probeBinary(t testing.TB, name string, flags ...string) string {
	testutil.Tools(t, "clang-22")
	probeBuildOnce.Do(func() { probeBuildDir, _ = os.MkdirTemp("", "probes") })
	bin := filepath.Join(probeBuildDir, name)
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	src := filepath.Join(probeBuildDir, "p.c")
	if err := os.WriteFile(src, []byte(probeProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-fprofile-generate", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true", "-o", bin, "p.c"}, flags...)
	cmd := exec.Command("clang-22", args...)
	cmd.Dir = probeBuildDir // the static function's name is p.c;helper
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang-22 %v: %v\n%s", args, err, out)
	}
	return bin
}

func TestReadDebugInfo(t *testing.T) {
	tests := []struct {
		name      string
		flags     []string
		maxWarn   int
		wantWarns []string
	}{
		{name: "dwarf5", flags: []string{"-g"}},
		{name: "dwarf4", flags: []string{"-g", "-gdwarf-4"}},
		{name: "line-tables", flags: []string{"-gline-tables-only"}, maxWarn: 2, wantWarns: []string{
			"Could not find address of function foo", "Could not find address of function p.c;helper", "Suppressed 1 additional warnings"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := ReadDebugInfo(probeBinary(t, tt.name, tt.flags...), tt.maxWarn)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range info.Probes {
				names = append(names, p.Name)
				if p.NumCounters == 0 || p.CounterOffset >= info.CountersSize {
					t.Errorf("probe %+v: counters outside the %d bytes of __llvm_prf_cnts", p, info.CountersSize)
				}
			}
			slices.Sort(names)
			if want := []string{"foo", "main", "p.c;helper"}; !slices.Equal(names, want) {
				t.Errorf("probes of %v, want %v", names, want)
			}
			if !slices.Equal(info.Warnings, tt.wantWarns) {
				t.Errorf("warnings %q, want %q", info.Warnings, tt.wantWarns)
			}
		})
	}
}

func TestReadDebugInfoRefuses(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "plain")
	testutil.Tools(t, "clang-22")
	src := filepath.Join(t.TempDir(), "p.c")
	os.WriteFile(src, []byte(probeProgram), 0o644)
	if out, err := exec.Command("clang-22", "-fprofile-generate", "-g", "-o", plain, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tests := []struct{ name, path, want string }{
		{"no probes", plain, "could not find any profile data metadata"},
		{"not ELF", src, "debug info:"},
	}
	for _, tt := range tests {
		_, err := ReadDebugInfo(tt.path, 0)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

func FuzzDebugInfo(f *testing.F) {
	if testutil.HasTool("clang-22") {
		for _, flags := range [][]string{{"-g"}, {"-g", "-gdwarf-4"}} {
			if b, err := os.ReadFile(probeBinary(f, strings.Join(flags, ""), flags...)); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("\x7fELF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ef, err := elf.NewFile(bytes.NewReader(b))
		if err != nil {
			return
		}
		info, err := readDebugInfo("fuzz", ef, 0)
		if err != nil {
			return
		}
		for _, p := range info.Probes {
			if p.CounterOffset >= info.CountersSize {
				t.Fatalf("probe %+v outside the counters", p)
			}
		}
	})
}
