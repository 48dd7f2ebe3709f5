package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// Issue 27 (the format): gcc-12 reads profgen's GCC AutoFDO profiles and
// annotates the functions with their counts. The program is
// testdata/programs/wordfreq.c, built by build.sh with gcc-12 -O2 -g
// (bin/wordfreq-gcc); its exact LBR trace is lbrgen's, under valgrind
// (make testdata, lbr/wordfreq-gcc).

const wordfreqSource = "../../testdata/programs/wordfreq.c"

// TestGCCAutoFDOAccepted: profgen's LLVM text profile of the trace,
// converted by profgen merge --gcc, compiles with gcc-12 -O2
// -fauto-profile -Wall without a diagnostic; -fdump-ipa-afdo shows every
// function of the profile annotated (checkAnnotated). gcc-12 refuses version
// 3 (it reads version 2 only).
func TestGCCAutoFDOAccepted(t *testing.T) {
	testutil.Tool(t, "gcc-12")
	data := testutil.DataDir(t, "lbr", "wordfreq-gcc")
	dir := t.TempDir()
	text := filepath.Join(dir, "wordfreq.txt")
	profgen(t, "--perfscript", filepath.Join(data, "single.script"), "--binary", filepath.Join(data, "binary"), "--format=text", "-o", text)
	tests := []struct {
		name  string
		flags []string
		want  string // gcc-12's diagnostics
	}{
		{"folded", []string{"--gcc-fold-discriminators"}, ""},
		{"with discriminators", nil, ""},
		{"version 3", []string{"--gcov-version=3"}, "AutoFDO profile version 3 does not match 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			afdo := filepath.Join(t.TempDir(), "wordfreq.afdo")
			profgen(t, append(append([]string{"merge", "--sample", "--gcc", "-o", afdo}, tt.flags...), text)...)
			diag, dump := compileAutoFDO(t, afdo)
			if tt.want != "" || diag != "" {
				if !strings.Contains(diag, tt.want) || tt.want == "" {
					t.Fatalf("gcc-12 said %q, want %q", diag, tt.want)
				}
				return
			}
			checkAnnotated(t, afdo, dump)
		})
	}
}

// TestGCCCreateGcovDialect: the "*704" dialect create_gcov writes (the
// checked-in fixture has its layout) is what gcc-12 refuses ("version
// 875575082 does not match 2"); profgen reads it and merge --gcc turns it
// into a version 2 profile that gcc-12 takes without a word. Where Debian's
// create_gcov 0.19 is installed, its own output on the wordfreq-gcc
// recording is "*704" too, and profgen reads it.
func TestGCCCreateGcovDialect(t *testing.T) {
	testutil.Tool(t, "gcc-12")
	fixture := "../../internal/sampleprof/testdata/gcc.afdo"
	if diag, _ := compileAutoFDO(t, fixture); !strings.Contains(diag, "AutoFDO profile version 875575082 does not match 2") {
		t.Errorf("gcc-12 on the *704 fixture: %q", diag)
	}
	converted := filepath.Join(t.TempDir(), "v2.afdo")
	profgen(t, "merge", "--sample", "--gcc", "-o", converted, fixture)
	if diag, _ := compileAutoFDO(t, converted); diag != "" {
		t.Errorf("gcc-12 on the converted fixture: %q", diag)
	}
	data, ok := testutil.OptionalDataDir("lbr", "wordfreq-gcc")
	if !ok || !testutil.HasTool("create_gcov") {
		return
	}
	own := filepath.Join(t.TempDir(), "create_gcov.afdo")
	if out, err := exec.Command("create_gcov", "--binary="+filepath.Join(data, "binary"), "--profile="+filepath.Join(data, "single.perf.data"), "--gcov="+own).CombinedOutput(); err != nil {
		t.Fatalf("create_gcov: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(own); err != nil || !strings.HasPrefix(string(b), "adcg*704") {
		t.Fatalf("create_gcov wrote %.8q (%v), want the *704 header", b, err)
	}
	if _, err := sampleprof.ReadFile(own); err != nil {
		t.Errorf("reading create_gcov's output: %v", err)
	}
}

// compileAutoFDO compiles wordfreq.c with gcc-12 -O2 -Wall and the
// profile, returning gcc's diagnostics and the afdo dump's path ("" when
// gcc failed).
func compileAutoFDO(t *testing.T, profile string) (diag, dump string) {
	t.Helper()
	src, err := filepath.Abs(wordfreqSource)
	if err != nil {
		t.Fatal(err)
	}
	return compileWithProfile(t, src, []string{"-O2", "-g", "-Wall"}, profile)
}

// checkAnnotated checks that each function of the profile has a block
// whose count is the larger of the function's head count (gcc gives it to
// the entry block when larger) and its largest body count (gcc gives a
// block the largest count of its statements).
func checkAnnotated(t *testing.T, profile, dump string) {
	t.Helper()
	p, err := sampleprof.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	blocks := dumpBlockCounts(t, dump)
	if len(p.Functions) == 0 {
		t.Fatal("empty profile")
	}
	for name, f := range p.Functions {
		want := max(f.HeadSamples, maxBodyCount(f))
		if !blocks[name][want] {
			t.Errorf("%s: block counts %v in the afdo dump, want a block of %d", name, blocks[name], want)
		}
	}
}

func maxBodyCount(f *sampleprof.FunctionSamples) uint64 {
	var m uint64
	for _, r := range f.Body {
		m = max(m, r.Samples)
	}
	return m
}

var (
	dumpFunction = regexp.MustCompile(`^[^\s;{}<].* \**([A-Za-z_][A-Za-z0-9_]*) \(`)
	dumpBlock    = regexp.MustCompile(`<bb \d+> \[count: (\d+)\]`)
)

// dumpBlockCounts reads the block counts of each function in a
// -fdump-ipa-afdo dump.
func dumpBlockCounts(t *testing.T, path string) map[string]map[uint64]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]map[uint64]bool{}
	var fn string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := dumpFunction.FindStringSubmatch(sc.Text()); m != nil {
			fn = m[1]
			counts[fn] = map[uint64]bool{}
		} else if m := dumpBlock.FindStringSubmatch(sc.Text()); m != nil && fn != "" {
			n, _ := strconv.ParseUint(m[1], 10, 64)
			counts[fn][n] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}
