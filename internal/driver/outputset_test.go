package driver

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

const (
	lbrExampleBinary = "../generate/testdata/cxx-pie.bin"
	lbrExampleScript = "../generate/testdata/lbr/cxx-pie.script"
)

// TestAlsoEqualsSeparateRuns: every output of one run with --also is
// byte-identical to the run asking for that format alone, for LBR input
// (committed example trace) and call-stack input (forky's perf.data),
// whichever output comes first.
func TestAlsoEqualsSeparateRuns(t *testing.T) {
	inputs := []struct {
		name    string
		in      Options
		formats []string // "" is --skip-symbolization
	}{
		{"LBR", Options{PerfScript: lbrExampleScript, Binaries: []string{lbrExampleBinary}},
			[]string{"text", "extbinary", "binary", "gcc", "bolt", "bolt-preagg", ""}},
		{"call stacks", Options{PerfData: callstackDir + "forky.perf.data", Binaries: []string{callstackDir + "forky"}},
			[]string{"text", "extbinary", "pprof", "gcc", "bolt", ""}},
	}
	for _, in := range inputs {
		for first := range in.formats {
			t.Run(in.name+"/"+formatLabel(in.formats[first]), func(t *testing.T) {
				dir := t.TempDir()
				opts := in.in
				opts.Quiet = true
				opts.Format, opts.SkipSymbolization, opts.Output = outputFlags(in.formats[first], dir)
				for i, f := range in.formats {
					if i != first && f != "" {
						opts.Also = append(opts.Also, AlsoOutput{Format: f, Output: outputFile(dir, f)})
					}
				}
				if err := Run(context.Background(), opts); err != nil {
					t.Fatal(err)
				}
				for i, f := range in.formats {
					if f == "" && i != first {
						continue // --skip-symbolization is no --also
					}
					alone := in.in
					alone.Quiet = true
					alone.Format, alone.SkipSymbolization, alone.Output = outputFlags(f, t.TempDir())
					want := runFile(t, alone)
					got, err := os.ReadFile(outputFile(dir, f))
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: %d bytes (%v), the run of it alone %d", formatLabel(f), len(got), err, len(want))
					}
				}
			})
		}
	}
}

func formatLabel(f string) string { return cmpOr(f, "skip-symbolization") }

func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// outputFlags are --format, --skip-symbolization and -o of format f ("":
// the address profile) in dir.
func outputFlags(f, dir string) (string, bool, string) {
	if f == "" {
		return "", true, outputFile(dir, f)
	}
	return f, false, outputFile(dir, f)
}

func outputFile(dir, f string) string { return filepath.Join(dir, "out."+formatLabel(f)) }

// runFile runs opts and returns the file it wrote.
func runFile(t *testing.T, opts Options) []byte {
	t.Helper()
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestAlsoRefusals: an output the input cannot give, flags of --also and
// two outputs into one file are refused in one line, and nothing is
// written; an output that fails while it is made leaves none of the
// others.
func TestAlsoRefusals(t *testing.T) {
	stripped := symbolsStripped(t, lbrExampleBinary)
	lbr := Options{PerfScript: lbrExampleScript, Binaries: []string{lbrExampleBinary}, Format: "text"}
	tests := []struct {
		name string
		opts Options
		also []AlsoOutput
		want string
	}{
		{"pprof of LBR", lbr, []AlsoOutput{{"pprof", "x.pb.gz"}}, "--format=pprof needs perf record -g"},
		{"unknown format", lbr, []AlsoOutput{{"fdata", "x"}}, "--format: "},
		{"no path", lbr, []AlsoOutput{{"bolt", ""}}, "want FORMAT=PATH"},
		{"same file", lbr, []AlsoOutput{{"bolt", "%out"}}, "two outputs would write"},
		{"same directory and extension", Options{PerfScript: lbrExampleScript, Binaries: []string{lbrExampleBinary}, Format: "text", Output: "%dir"},
			[]AlsoOutput{{"extbinary", "%dir"}}, "two outputs would write"},
		{"gcc flags without gcc", Options{PerfScript: lbrExampleScript, Binaries: []string{lbrExampleBinary}, Format: "text", GCC: GCCOptions{Version: 2}},
			[]AlsoOutput{{"bolt", "x.fdata"}}, "apply to --format=gcc"},
		{"BOLT fails after the address profile", Options{PerfScript: lbrExampleScript, Binaries: []string{stripped}, SkipSymbolization: true},
			[]AlsoOutput{{"bolt", "x.fdata"}}, "symbol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := tt.opts
			opts.Output = cmpOr(strings.ReplaceAll(opts.Output, "%dir", dir), filepath.Join(dir, "out"))
			for _, a := range tt.also {
				a.Output = strings.NewReplacer("%out", opts.Output, "%dir", dir).Replace(a.Output)
				if !filepath.IsAbs(a.Output) && a.Output != "" {
					a.Output = filepath.Join(dir, a.Output)
				}
				opts.Also = append(opts.Also, a)
			}
			var stderr bytes.Buffer
			opts.Stderr = &stderr
			err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tt.want)
			}
			if files, _ := os.ReadDir(dir); len(files) > 0 {
				t.Errorf("%d files left: %s", len(files), files[0].Name())
			}
			var usage *UsageError
			if tt.name != "BOLT fails after the address profile" && tt.name != "pprof of LBR" && !errors.As(err, &usage) {
				t.Errorf("%v: not a usage error (refused before the input is read)", err)
			}
		})
	}
}

// symbolsStripped copies bin without symbols (objcopy --strip-all): BOLT
// finds no function in it.
func symbolsStripped(t *testing.T, bin string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(bin))
	cmd := exec.Command("objcopy", "--strip-all", bin, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("objcopy: %v\n%s", err, msg)
	}
	return out
}

// TestAlsoHybridReadings: outputs that read hybrid samples alike (text and
// extbinary: contexts) share the run; outputs that read them differently
// (contexts, BOLT's traces) are refused in one line, nothing written.
func TestAlsoHybridReadings(t *testing.T) {
	dir := testutil.DataDir(t, "lbr", "wordfreq")
	in := Options{PerfScript: filepath.Join(dir, "hybrid.script"), Binaries: []string{filepath.Join(dir, "binary")}, Quiet: true}
	out := t.TempDir()
	opts := in
	opts.Format, opts.Output = "text", filepath.Join(out, "a.prof")
	opts.Also = []AlsoOutput{{"extbinary", filepath.Join(out, "a.extbinary")}}
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	alone := in
	alone.Format, alone.Output = "extbinary", filepath.Join(t.TempDir(), "b")
	if got, want := readFile(t, opts.Also[0].Output), runFile(t, alone); !bytes.Equal(got, want) {
		t.Errorf("extbinary of hybrid samples: %d bytes, alone %d", len(got), len(want))
	}
	out = t.TempDir()
	opts.Output, opts.Also = filepath.Join(out, "a.prof"), []AlsoOutput{{"bolt", filepath.Join(out, "a.fdata")}}
	err := Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "read differently") {
		t.Errorf("text and bolt of hybrid samples: %v, want the refusal", err)
	}
	if files, _ := os.ReadDir(out); len(files) > 0 {
		t.Errorf("%d files left", len(files))
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
