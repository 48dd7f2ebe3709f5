package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGCCPLTNamesMatchPerfReport: on a live recording of a g++-built
// program whose hot loop calls std::string::_M_append through its PLT
// stub, the flat per-function counts of profgen's pprof, keyed by function
// name, equal perf report -v's per-symbol counts for the binary: C++ names
// demangled with their parameters, and the PLT stub named by its target
// demangled and @plt, with --perfdata and with --perfscript.
func TestGCCPLTNamesMatchPerfReport(t *testing.T) {
	needTools(t, "perf")
	bin, err := filepath.Abs("../../testdata/programs/bin/strappend-gcc")
	if err != nil {
		t.Fatal(err)
	}
	data := recordStacks(t, bin, "20000000")
	report := runTool(t, "perf", "report", "-v", "-i", data, "--no-children", "--sort", "sym", "-g", "none",
		"--stdio", "-F", "sample,sym", "--dsos", filepath.Base(bin))
	want := countsByFunction(report, `(?m)^\s*(\d+)\s.*\[\.\]\s+(.+?)\s*$`)
	const stub = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long)@plt"
	if want[stub] == 0 {
		t.Skipf("no sample in %s (perf report: %v)", stub, want)
	}
	script := filepath.Join(t.TempDir(), "perf.script")
	if err := os.WriteFile(script, runTool(t, "perf", "script", "-i", data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, input := range [][]string{{"--perfdata", data}, {"--perfscript", script}} {
		t.Run(input[0], func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "strappend.pb.gz")
			profgen(t, append(input, "--binary", bin, "--format=pprof", "-o", out, "-q")...)
			got := flatByFunction(t, out)
			for fn, n := range want {
				if got[fn] != n {
					t.Errorf("%s: pprof flat %d, perf report %d", fn, got[fn], n)
				}
			}
		})
	}
}

// flatByFunction sums a pprof profile's samples by the name of the
// function their innermost location lies in (its outermost line: the
// function the code was compiled into, whose symbol perf names).
func flatByFunction(t *testing.T, path string) map[string]int {
	m := map[string]int{}
	for _, s := range readProfile(t, path).Sample {
		lines := s.Location[0].Line
		if len(lines) > 0 {
			m[lines[len(lines)-1].Function.Name] += int(s.Value[0])
		}
	}
	return m
}
