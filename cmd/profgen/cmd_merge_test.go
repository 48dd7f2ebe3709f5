package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// instrData returns the test data's instr/<part>, skipping when absent.
func instrData(t *testing.T, part string) string {
	t.Helper()
	dir := testutil.DataDir(t, "instr", part)
	if _, err := os.Stat(filepath.Join(dir, ".done")); err != nil {
		t.Skipf("%s not built (scripts/testdata.d/30-instr.sh)", dir)
	}
	return dir
}

func needTool(t *testing.T, tools ...string) {
	t.Helper()
	testutil.Tools(t, tools...)
}

// profgenMerge runs `profgen merge` in-process and returns stderr.
func profgenMerge(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newMergeCommand()
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)
	cmd.SetOut(&stderr)
	cmd.SetArgs(args)
	cmd.SilenceUsage = true
	err := cmd.Execute()
	return stderr.String(), err
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// llvmText renders an indexed profile with llvm-profdata-22 merge --text.
func llvmText(t *testing.T, profdata string) string {
	t.Helper()
	out := profdata + ".txt"
	run(t, "llvm-profdata-22", "merge", "--text", "-o", out, profdata)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareWithLLVM merges inputs with profgen and with llvm-profdata (tool,
// extra flags) and compares llvm-profdata-22 --text of both.
func compareWithLLVM(t *testing.T, tool string, flags []string, inputs ...string) string {
	t.Helper()
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.profdata"), filepath.Join(dir, "theirs.profdata")
	stderr, err := profgenMerge(t, append(append([]string{"-o", ours}, flags...), inputs...)...)
	if err != nil {
		t.Fatalf("profgen merge: %v\n%s", err, stderr)
	}
	run(t, tool, append(append([]string{"merge", "-o", theirs}, flags...), inputs...)...)
	if a, b := llvmText(t, ours), llvmText(t, theirs); a != b {
		t.Fatalf("llvm-profdata-22 --text differs between profgen's and %s's merge", tool)
	}
	// Same version and build ids: the very bytes match too.
	if a, b := readFile(t, ours), readFile(t, theirs); tool == "llvm-profdata-22" && !bytes.Equal(a, b) {
		t.Errorf("the .profdata is not byte-identical to %s's", tool)
	}
	return ours
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMergeSqliteMatchesLLVM(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	dir := instrData(t, "sqlite")
	ours := compareWithLLVM(t, "llvm-profdata-22", nil, filepath.Join(dir, "raw"))
	// profgen's own --text is llvm-profdata's --text.
	text := filepath.Join(t.TempDir(), "ours.txt")
	if stderr, err := profgenMerge(t, "--text", "-o", text, ours); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if b, _ := os.ReadFile(text); string(b) != llvmText(t, ours) {
		t.Error("profgen --text differs from llvm-profdata-22 --text")
	}
	// Same bytes for another thread count and the reverse input order.
	files, _ := filepath.Glob(filepath.Join(dir, "raw", "*.profraw"))
	if len(files) < 1000 {
		t.Fatalf("%d raws, want ≥1000", len(files))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(files)))
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644)
	other := filepath.Join(t.TempDir(), "other.profdata")
	if stderr, err := profgenMerge(t, "-j", "3", "-o", other, "--input-files", list); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	a, _ := os.ReadFile(ours)
	b, _ := os.ReadFile(other)
	if !bytes.Equal(a, b) {
		t.Error("output depends on thread count or input order")
	}
}

func TestMergeCorrelated(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	dir := instrData(t, "corr")
	bin := filepath.Join(dir, "binary")
	compareWithLLVM(t, "llvm-profdata-22", []string{"--binary-file=" + bin}, filepath.Join(dir, "raw"))
	_, err := profgenMerge(t, "-o", filepath.Join(t.TempDir(), "x"), filepath.Join(dir, "raw"))
	if err == nil || !strings.Contains(err.Error(), "--binary-file") {
		t.Errorf("correlated raws without --binary-file: got %v, want an error naming --binary-file", err)
	}
}

func TestMergeClang14(t *testing.T) {
	needTool(t, "llvm-profdata-22", "llvm-profdata-14")
	dir := instrData(t, "clang14")
	// llvm-profdata-22 cannot read raw v8: the reference is llvm-profdata-14.
	compareWithLLVM(t, "llvm-profdata-14", nil, filepath.Join(dir, "raw"))
}

func TestMergeContinuous(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	compareWithLLVM(t, "llvm-profdata-22", nil, filepath.Join(instrData(t, "cont"), "raw"))
}

// TestMergePools: merge-pool raws hold the indirect-call targets of many
// processes; those outside the profiled code all become 0. llvm-profdata
// keeps each as its own "** External Symbol **" entry (and pairs them up by
// position when merging, so its result depends on the order), profgen sums
// them into one. Everything else must match.
func TestMergePools(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	raws := filepath.Join(instrData(t, "pool"), "raw")
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.profdata"), filepath.Join(dir, "theirs.profdata")
	if stderr, err := profgenMerge(t, "-o", ours, raws); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	run(t, "llvm-profdata-22", "merge", "-o", theirs, raws)
	if a, b := withoutValues(llvmText(t, ours)), withoutValues(llvmText(t, theirs)); a != b {
		t.Errorf("counters differ from llvm-profdata-22's:\n%s\n----\n%s", a, b)
	}
}

// withoutValues drops the value-profile part of each text record.
func withoutValues(text string) string {
	var out []string
	skip := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case line == "# Num Value Kinds:":
			skip = true
		case line == "":
			skip = false
		}
		if !skip {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

func TestMatchBinaryID(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	dir := instrData(t, "mixed")
	out := filepath.Join(t.TempDir(), "a.profdata")
	stderr, err := profgenMerge(t, "--match-binary-id", "--binary-file="+filepath.Join(dir, "bin-a"), "-o", out, filepath.Join(dir, "raw"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	aFiles, _ := filepath.Glob(filepath.Join(dir, "raw", "a-*.profraw"))
	bFiles, _ := filepath.Glob(filepath.Join(dir, "raw", "b-*.profraw"))
	for _, b := range bFiles {
		if !strings.Contains(stderr, "skipped "+b+": binary id ") {
			t.Errorf("%s not listed as skipped", b)
		}
	}
	ref := filepath.Join(t.TempDir(), "ref.profdata")
	run(t, "llvm-profdata-22", append([]string{"merge", "-o", ref}, aFiles...)...)
	if llvmText(t, out) != llvmText(t, ref) {
		t.Error("--match-binary-id profile differs from llvm-profdata-22's merge of the matching raws")
	}
}

// TestTruncatedRealRaws cuts real sqlite raws at many offsets: each copy
// fails with an error naming it, or is skipped under --failure-mode=all
// while the intact raws still merge to llvm-profdata's profile.
func TestTruncatedRealRaws(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	src := instrData(t, "sqlite")
	files, _ := filepath.Glob(filepath.Join(src, "raw", "*.profraw"))
	full, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := []string{files[1], files[2]}
	var cuts []string
	for _, n := range []int{1, 7, 8, 100, 127, 128, 200, 1000, len(full) / 3, len(full) / 2, len(full) - 4096, len(full) - 9, len(full) - 1} {
		if n <= 0 || n >= len(full) {
			continue
		}
		cut := filepath.Join(dir, "cut-"+strconv.Itoa(n)+".profraw")
		os.WriteFile(cut, full[:n], 0o644)
		cuts = append(cuts, cut)
		_, err := profgenMerge(t, "-o", filepath.Join(dir, "x"), cut, good[0])
		if err == nil || !strings.Contains(err.Error(), cut) {
			t.Errorf("cut at %d: got %v, want an error naming the file", n, err)
		}
	}
	out := filepath.Join(dir, "all.profdata")
	stderr, err := profgenMerge(t, append([]string{"--failure-mode=all", "-o", out}, append(cuts, good...)...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "merged 2 files") {
		t.Errorf("summary: %s", stderr)
	}
	ref := filepath.Join(dir, "ref.profdata")
	run(t, "llvm-profdata-22", append([]string{"merge", "-o", ref}, good...)...)
	if llvmText(t, out) != llvmText(t, ref) {
		t.Error("profile of the intact raws differs from llvm-profdata-22's")
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a failed merge left an output file")
	}
}

func TestEmptyRawReported(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "killed.profraw")
	os.WriteFile(empty, nil, 0o644)
	good, _ := filepath.Abs("../../internal/instrprof/testdata/ir19-1.profraw")
	stderr, err := profgenMerge(t, "-o", filepath.Join(dir, "out.profdata"), empty, good)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "skipped "+empty+": empty") || !strings.Contains(stderr, "1 empty") {
		t.Errorf("0-byte raw not reported: %s", stderr)
	}
}

func TestSampleAndInstrumentationMixRefused(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "s.prof")
	os.WriteFile(s, []byte("main:100:1\n 1: 100\n"), 0o644)
	raws, _ := filepath.Glob("../../internal/instrprof/testdata/*.profraw")
	if len(raws) == 0 {
		t.Fatal("no test raws")
	}
	_, err := profgenMerge(t, "-o", filepath.Join(dir, "o"), s, raws[0])
	if err == nil || !strings.Contains(err.Error(), "cannot merge sample profiles") {
		t.Errorf("got %v, want a refusal of mixed sample and instrumentation profiles", err)
	}
}

// TestProfileUse checks that clang-22 reads profgen's default output and
// clang-19 its --output-version=12 one, with no function missing or out
// of date.
func TestProfileUse(t *testing.T) {
	for _, tt := range []struct {
		clang string
		flags []string
	}{{"clang-22", nil}, {"clang-19", []string{"--output-version=12"}}} {
		needTool(t, tt.clang)
		dir := instrData(t, "pool")
		out := filepath.Join(t.TempDir(), "p.profdata")
		if stderr, err := profgenMerge(t, append(tt.flags, "-o", out, filepath.Join(dir, "raw"))...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		src := filepath.Join(dir, "..", ".cache", "small.c")
		run(t, tt.clang, "-O1", "-fprofile-use="+out, "-Werror=profile-instr-unprofiled", "-Werror=profile-instr-out-of-date",
			"-Werror=profile-instr-missing", "-c", "-o", filepath.Join(t.TempDir(), "s.o"), src)
	}
}

// TestSparseAndResponseFile: --sparse and @list inputs, as llvm-profdata.
func TestSparseAndResponseFile(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	files, _ := filepath.Glob(filepath.Join(instrData(t, "sqlite"), "raw", "*.profraw"))
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte(strings.Join(files[:20], "\n")+"\n"), 0o644)
	compareWithLLVM(t, "llvm-profdata-22", []string{"--sparse"}, "@"+list)
}
