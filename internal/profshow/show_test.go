package profshow

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"

	"github.com/profgen/profgen/internal/sampleprof"
)

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	testutil.Golden(t, filepath.Join("testdata", "golden", name), got)
}

func TestShow(t *testing.T) {
	p, err := sampleprof.ReadFile("testdata/cpp.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		golden   string
		function string // "" for the summary
		json     bool
	}{
		{"summary.txt", "", false},
		{"summary.json", "", true},
		{"main.txt", "main", false},
		{"main.json", "main", true},
		{"foo-demangled.txt", "foo(int)", false},
		{"run-noparams.txt", "ns::Bar::run", false},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var v any = Summarize(p, "text", 3)
			if tt.function != "" {
				f, err := FindFunction(p, tt.function)
				if err != nil {
					t.Fatal(err)
				}
				v = f
			}
			var b bytes.Buffer
			switch x := v.(type) {
			case *Summary:
				if !tt.json {
					WriteSummary(&b, x)
				}
			case *Function:
				if !tt.json {
					WriteFunction(&b, x)
				}
			}
			if tt.json {
				WriteJSON(&b, v)
			}
			checkGolden(t, tt.golden, b.Bytes())
		})
	}
}

func TestFindInlined(t *testing.T) {
	p, err := sampleprof.ReadFile("testdata/cpp.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := FindInlined(p, "foo(int)")
	if len(in) != 1 || in[0].Path != "main:3 @ ns::Bar::run:3 @ foo" || in[0].Function.Total != 100 {
		t.Errorf("FindInlined(foo(int)) = %+v", in)
	}
	var b bytes.Buffer
	WriteInstances(&b, "ns::Bar::run", FindInlined(p, "ns::Bar::run"))
	checkGolden(t, "run-inlined.txt", b.Bytes())
}

func TestFindFunctionErrors(t *testing.T) {
	p, err := sampleprof.ReadFile("testdata/cpp.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"foo", "nosuch"} { // foo: two overloads
		if _, err := FindFunction(p, name); err == nil {
			t.Errorf("FindFunction(%q) found one", name)
		}
	}
}

func TestSummaryThresholdsMatchLLVM(t *testing.T) {
	p, err := sampleprof.ReadFile("testdata/cpp.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(p, "text", 3)
	// As llvm-profdata-19 show --sample --detailed-summary prints them:
	// "7 blocks with count >= 50 account for 99 percentage", and ">= 10"
	// for 99.9999.
	if s.HotThreshold != 50 || s.ColdThreshold != 10 {
		t.Errorf("thresholds %d/%d, want 50/10", s.HotThreshold, s.ColdThreshold)
	}
	// llvm-profdata-19 show --sample --hot-func-list: "3 out of 5 functions
	// ... are considered hot functions (max sample >= 50). 8050 out of 8072
	// profile counts (99.73%) are from hot functions."
	if s.HotFunctions != 3 || s.HotSamples != SumOf(8050) || s.TotalSamples != SumOf(8072) {
		t.Errorf("hot functions %d with %d of %d samples, want 3 with 8050 of 8072", s.HotFunctions, s.HotSamples, s.TotalSamples)
	}
}

// TestSummaryTotalIsTrue: totals beyond 2^64-1 are summed in 128 bits
// (LLVM's overflow-sample.proftext: 2^64-1 twice and 1000), so that
// shares stay at or below 100%.
func TestSummaryTotalIsTrue(t *testing.T) {
	p, err := sampleprof.ReadText(strings.NewReader("a:18446744073709551615:1\n 1: 18446744073709551615\nb:18446744073709551615:1\n 1: 18446744073709551615\nmain:1000:0\n 1: 1000\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(p, "text", 2)
	if got := s.TotalSamples.String(); got != "36893488147419104230" {
		t.Errorf("total = %s, want 36893488147419104230", got)
	}
	for _, h := range s.Hottest {
		if h.Percent > 100 || h.Percent < 49.9 {
			t.Errorf("%s: %.1f%% of the total, want about 50%%", h.Name, h.Percent)
		}
	}
	var b strings.Builder
	if err := WriteJSON(&b, s); err != nil || !strings.Contains(b.String(), `"total_samples": 36893488147419104230,`) {
		t.Errorf("JSON %v:\n%s", err, b.String())
	}
}

func TestYAMLScalar(t *testing.T) {
	tests := []struct{ in, want string }{
		{"_Z3fooi", "_Z3fooi"},
		{"main.cpp", "main.cpp"},
		{"foo.cpp;_ZL6helperi", "'foo.cpp;_ZL6helperi'"},
		{"/tmp/a.c", "'/tmp/a.c'"},
		{"-x", "'-x'"},
		{"it's", "'it''s'"},
		{"", "''"},
		{"tab\there", "tab\there"},
		{"nl\x01", `"nl\x01"`},
		{"é", `"é"`},
	}
	for _, tt := range tests {
		if got := yamlScalar(tt.in); got != tt.want {
			t.Errorf("yamlScalar(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
