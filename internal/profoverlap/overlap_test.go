package profoverlap

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCFloat(t *testing.T) {
	negNaN := math.Float64frombits(0xfff8000000000000)
	for _, tc := range []struct {
		v    float64
		prec int
		want string
	}{
		{73.94753, 3, "73.948"},
		{0.125, 2, "0.12"}, // an exact tie rounds to even, as glibc
		{0.375, 2, "0.38"},
		{301005, 0, "301005"},
		{negNaN, 3, "-nan"},
		{math.NaN(), 3, "nan"},
		{math.Inf(1), 3, "inf"},
	} {
		if got := cFloat(tc.v, tc.prec); got != tc.want {
			t.Errorf("cFloat(%v, %d) = %q, want %q", tc.v, tc.prec, got, tc.want)
		}
	}
}

func TestPadColumns(t *testing.T) {
	for _, tc := range []struct {
		cells []string
		want  string
	}{
		{[]string{"a", "b"}, "a" + strings.Repeat(" ", 14) + "b"},
		{[]string{strings.Repeat("x", 20), "b"}, strings.Repeat("x", 20) + " b"}, // past the column: one space
	} {
		if got := padColumns(tc.cells); got != tc.want {
			t.Errorf("padColumns(%q) = %q, want %q", tc.cells, got, tc.want)
		}
	}
}

func TestScore(t *testing.T) {
	for _, tc := range []struct {
		a, b       uint64
		sumA, sumB float64
		want       float64
	}{
		{50, 10, 100, 100, 0.1},
		{50, 10, 100, 10, 0.5},
		{50, 10, 0.5, 100, 0}, // a sum below 1 scores nothing
	} {
		if got := score(tc.a, tc.b, tc.sumA, tc.sumB); got != tc.want {
			t.Errorf("score(%d, %d, %v, %v) = %v, want %v", tc.a, tc.b, tc.sumA, tc.sumB, got, tc.want)
		}
	}
}

// writeFiles writes name: content files into a temporary directory and
// returns their paths by name.
func writeFiles(t *testing.T, files map[string]string) map[string]string {
	dir := t.TempDir()
	paths := map[string]string{}
	for name, content := range files {
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

func TestRun(t *testing.T) {
	p := writeFiles(t, map[string]string{
		"a.proftext": ":ir\nmain\n1\n2\n10\n30\n",
		"b.proftext": ":ir\nmain\n1\n2\n30\n10\nonly\n2\n1\n5\n",
		"z.proftext": ":ir\nmain\n1\n2\n0\n0\n",
		"s.txt":      "main:100:1\n 1: 100\n",
	})
	for _, tc := range []struct {
		name    string
		opts    Options
		want    string // a line of the report, or of the error
		wantErr bool
	}{
		{"edges", Options{Base: p["a.proftext"], Test: p["b.proftext"], ValueCutoff: math.MaxUint64}, "  Edge profile overlap: 47.222%\n", false},
		{"unique", Options{Base: p["a.proftext"], Test: p["b.proftext"], ValueCutoff: math.MaxUint64}, "  # of functions only in test_profile: 1\n", false},
		{"function", Options{Base: p["a.proftext"], Test: p["b.proftext"], Function: "ma", ValueCutoff: math.MaxUint64}, "  Function: main (Hash=1)\n", false},
		{"zero sum reported", Options{Base: p["z.proftext"], Test: p["b.proftext"]}, "Sum of edge counts for profile " + p["z.proftext"] + " is 0.\n", false},
		{"sample input refused", Options{Base: p["a.proftext"], Test: p["s.txt"]}, "is a sample profile", true},
		{"--sample on instrumentation", Options{Base: p["a.proftext"], Test: p["b.proftext"], Kind: "sample"}, "is an instrumentation profile", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Run(&out, tc.opts)
			switch {
			case tc.wantErr && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			case !tc.wantErr && err != nil:
				t.Fatal(err)
			case !tc.wantErr && !strings.Contains(out.String(), tc.want):
				t.Errorf("report lacks %q:\n%s", tc.want, out.String())
			}
		})
	}
}
