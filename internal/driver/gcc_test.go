package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// TestGCCFolds: discriminators are folded for version 2 unless the binary
// was built by GCC 13 or later, kept for version 3, and as asked when
// asked.
func TestGCCFolds(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name    string
		opts    GCCOptions
		version uint32
		bin     string
		want    bool
	}{
		{"v2 gcc-12", GCCOptions{}, 2, "wordfreq-gcc", true},
		{"v2 clang", GCCOptions{}, 2, "wordfreq", true},
		{"v3 gcc-12", GCCOptions{}, 3, "wordfreq-gcc", false},
		{"v2 gcc-12 kept", GCCOptions{FoldDiscriminators: &no}, 2, "wordfreq-gcc", false},
		{"v3 folded", GCCOptions{FoldDiscriminators: &yes}, 3, "wordfreq-gcc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := binary.Open(filepath.Join("../../testdata/programs/bin", tt.bin), binary.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got := gccFolds(tt.opts, tt.version, f); got != tt.want {
				t.Errorf("gccFolds = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestGCCZerosAsOne: the zero counts of hot instances are written as 1
// for version 2, kept for version 3, and as asked when asked.
func TestGCCZerosAsOne(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name    string
		opts    GCCOptions
		version uint32
		want    bool
	}{
		{"v2", GCCOptions{}, 2, true},
		{"v3", GCCOptions{}, 3, false},
		{"v2 kept", GCCOptions{ZerosAsOne: &no}, 2, false},
		{"v3 asked", GCCOptions{ZerosAsOne: &yes}, 3, true},
	}
	for _, tt := range tests {
		if got := gccZerosAsOne(tt.opts, tt.version); got != tt.want {
			t.Errorf("%s: gccZerosAsOne = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGCCRowIsLLVMProfile: --format=gcc writes the profile --format=text
// writes, through the GCC writer: the text profile read back and written
// by sampleprof.WriteGCC (version 2, folded: gcc-12's and clang's
// binaries; zeros of hot instances as 1) gives the same bytes. Inputs: LBR (wordfreq-gcc's lbrgen
// trace, gcc-12), hybrid samples made flat (wordfreq's hybrid trace,
// beside --ignore-stack-samples), and call stacks (forky, checked in).
func TestGCCRowIsLLVMProfile(t *testing.T) {
	lbr := testutil.DataDir(t, "lbr")
	tests := []struct {
		name   string
		opts   Options
		flat   bool // the text profile is made with --ignore-stack-samples
		folded bool
	}{
		{"LBR v2", Options{PerfScript: filepath.Join(lbr, "wordfreq-gcc/single.script"), Binaries: []string{filepath.Join(lbr, "wordfreq-gcc/binary")}}, false, true},
		{"hybrid", Options{PerfScript: filepath.Join(lbr, "wordfreq/hybrid.script"), Binaries: []string{filepath.Join(lbr, "wordfreq/binary")}}, true, true},
		{"call stacks", Options{PerfScript: callstackDir + "forky.pid-ip-sym-dso.script", Binaries: []string{callstackDir + "forky"}}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gcc := runGCCRow(t, tt.opts, filepath.Join(dir, "out.afdo"))
			text := tt.opts
			text.Format, text.GCC, text.Output = "text", GCCOptions{}, filepath.Join(dir, "out.txt")
			if tt.flat {
				cs := DefaultCSOptions()
				cs.IgnoreStackSamples = true
				text.CS = &cs
			}
			runQuiet(t, text)
			prof, err := sampleprof.ReadFile(text.Output)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := sampleprof.WriteGCC(&want, prof, sampleprof.GCCOptions{Version: tt.opts.GCC.Version, FoldDiscriminators: tt.folded, ZerosAsOne: true}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gcc, want.Bytes()) {
				t.Errorf("--format=gcc wrote %d bytes, the text profile through WriteGCC %d", len(gcc), want.Len())
			}
		})
	}
}

// TestGCCVersion3: --gcov-version=3 names each function's source file
// (DW_AT_decl_file) and keeps gcc-12's discriminators as they are (the
// line table's 3 on main's line 208, offset 8, is not read as LLVM's packed
// encoding, which would make it 0).
func TestGCCVersion3(t *testing.T) {
	data := testutil.DataDir(t, "lbr", "wordfreq-gcc")
	opts := Options{PerfScript: filepath.Join(data, "single.script"), Binaries: []string{filepath.Join(data, "binary")}, GCC: GCCOptions{Version: 3}}
	out := filepath.Join(t.TempDir(), "v3.afdo")
	runGCCRow(t, opts, out)
	prof, err := sampleprof.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"main", "merge_sort", "by_word"} {
		if got := prof.SourceFiles[fn]; got != "wordfreq.c" {
			t.Errorf("source file of %s: %q, want wordfreq.c", fn, got)
		}
	}
	if _, ok := prof.Functions["main"].Body[sampleprof.LineLocation{LineOffset: 8, Discriminator: 3}]; !ok {
		t.Errorf("main has no location 8.3: %v", prof.Functions["main"].Body)
	}
}

// runGCCRow runs opts with --format=gcc into out and returns the bytes.
func runGCCRow(t *testing.T, opts Options, out string) []byte {
	t.Helper()
	opts.Format, opts.Output = "gcc", out
	runQuiet(t, opts)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func runQuiet(t *testing.T, opts Options) {
	t.Helper()
	opts.Quiet = true
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
}

// TestGCCValidate: GCC's flags without --format=gcc, a version profgen
// does not write and --use-md5 are refused before any input is read.
func TestGCCValidate(t *testing.T) {
	yes := true
	base := Options{PerfScript: "in.script", Binaries: []string{"b"}, Output: filepath.Join(t.TempDir(), "out")}
	tests := []struct {
		name   string
		format string
		gcc    GCCOptions
		md5    bool
		want   string
	}{
		{"version without gcc", "text", GCCOptions{Version: 3}, false, "--gcov-version, --gcc-fold-discriminators and --gcc-zeros-as-one apply to --format=gcc"},
		{"fold without gcc", "extbinary", GCCOptions{FoldDiscriminators: &yes}, false, "--gcov-version, --gcc-fold-discriminators and --gcc-zeros-as-one apply to --format=gcc"},
		{"version 1", "gcc", GCCOptions{Version: 1}, false, "--gcov-version: 1 is neither 2 (GCC 12 to 15) nor 3 (GCC 16)"},
		{"md5", "gcc", GCCOptions{}, true, "--use-md5 applies to extbinary: GCC matches functions by name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := base
			opts.Format, opts.GCC, opts.UseMD5 = tt.format, tt.gcc, tt.md5
			err := Run(context.Background(), opts)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestGCCProcessesEqualSum: the GCC profile of several processes of one
// binary at different ASLR bases (multi), and of a process with forked
// children that keep its base (fork), is the GCC profile of the sum of
// llvm-profgen-19's counts of each process alone; on the gcc-12 builds
// (wordfreq-gcc, and sqlite-gcc where make testdata made it).
func TestGCCProcessesEqualSum(t *testing.T) {
	for _, prog := range []string{"wordfreq-gcc", "sqlite-gcc"} {
		dir, ok := testutil.OptionalDataDir("lbr", prog)
		if !ok {
			continue
		}
		for _, kind := range []string{"multi", "fork"} {
			each, _ := filepath.Glob(filepath.Join(dir, kind+".*.script"))
			if len(each) < 2 {
				continue
			}
			t.Run(prog+"/"+kind, func(t *testing.T) {
				bin := filepath.Join(dir, "binary")
				tmp := t.TempDir()
				sum := filepath.Join(tmp, "sum.raw")
				if err := os.WriteFile(sum, sumLLVM(t, bin, each), 0o644); err != nil {
					t.Fatal(err)
				}
				got := runGCCRow(t, Options{PerfScript: filepath.Join(dir, kind+".script"), Binaries: []string{bin}}, filepath.Join(tmp, "got.afdo"))
				want := runGCCRow(t, Options{UnsymbolizedProfile: sum, Binaries: []string{bin}}, filepath.Join(tmp, "want.afdo"))
				if !bytes.Equal(got, want) {
					t.Errorf("%d processes: %d bytes, the sum of each alone %d", len(each), len(got), len(want))
				}
			})
		}
	}
}
