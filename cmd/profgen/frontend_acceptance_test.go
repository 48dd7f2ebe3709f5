package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestFrontEndClang22 is issue 26's acceptance on a real program: sqlite
// built by clang-22 -fprofile-instr-generate -fcoverage-mapping, its raws
// merged by profgen and by llvm-profdata-22. The files are byte-identical,
// llvm-cov-22 reports the same coverage from either, clang-22
// -fprofile-instr-use finds no function out of date, and profgen reads
// llvm-profdata-22's file back.
func TestFrontEndClang22(t *testing.T) {
	needTool(t, "llvm-profdata-22", "llvm-cov-22", "clang-22")
	dir := instrData(t, "fe22")
	ours, theirs := mergeBoth(t, dir, "llvm-profdata-22")
	if !bytes.Equal(readFile(t, ours), readFile(t, theirs)) {
		t.Error("profgen's merge differs from llvm-profdata-22's")
	}
	bin := filepath.Join(dir, "binary")
	if a, b := run(t, "llvm-cov-22", "report", "--instr-profile="+ours, bin), run(t, "llvm-cov-22", "report", "--instr-profile="+theirs, bin); a != b {
		t.Errorf("llvm-cov-22 report differs:\n%s\n---\n%s", a, b)
	}
	if msg := outOfDate(t, ours); msg != "" {
		t.Errorf("clang-22 -fprofile-instr-use of profgen's merge: %s", msg)
	}
	back := filepath.Join(t.TempDir(), "back.proftext")
	if _, _, err := runInProcess([]string{"merge", "--text", "-o", back, theirs}); err != nil {
		t.Fatalf("profgen cannot read llvm-profdata-22's profile: %v", err)
	}
	if a, b := string(readFile(t, back)), run(t, "llvm-profdata-22", "merge", "--text", "-o", "-", theirs); a != b {
		t.Error("profgen's text of llvm-profdata-22's profile differs from llvm's")
	}
}

// TestFrontEndClang19RawsForClang22: sqlite's raws from clang-19 merged by
// llvm-profdata-22 (version 13) make clang-22 ignore functions as out of
// date; profgen's merge (version 12, as their hashes need) does not.
func TestFrontEndClang19RawsForClang22(t *testing.T) {
	needTool(t, "llvm-profdata-22", "clang-22")
	ours, theirs := mergeBoth(t, instrData(t, "fe19"), "llvm-profdata-22")
	if msg := outOfDate(t, ours); msg != "" {
		t.Errorf("clang-22 -fprofile-instr-use of profgen's merge: %s", msg)
	}
	if outOfDate(t, theirs) == "" {
		t.Error("llvm-profdata-22's merge of clang-19 raws is read without a mismatch: the test proves nothing")
	}
}

// mergeBoth merges dir/raw with profgen and with tool.
func mergeBoth(t *testing.T, dir, tool string) (ours, theirs string) {
	t.Helper()
	tmp := t.TempDir()
	ours, theirs = filepath.Join(tmp, "ours.profdata"), filepath.Join(tmp, "theirs.profdata")
	raws := filepath.Join(dir, "raw")
	if _, stderr, err := runInProcess([]string{"merge", "-o", ours, raws}); err != nil {
		t.Fatalf("profgen merge: %v\n%s", err, stderr)
	}
	run(t, tool, "merge", "-o", theirs, raws)
	return ours, theirs
}

// outOfDate compiles sqlite (at -O0: the hashes are checked in any case)
// with clang-22 -fprofile-instr-use=profile and returns its out-of-date
// warning, if any.
func outOfDate(t *testing.T, profile string) string {
	t.Helper()
	src := testutil.DataDir(t, "instr", ".cache")
	cmd := exec.Command("clang-22", "-O0", "-c", "-o", filepath.Join(t.TempDir(), "sqlite.o"),
		"-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_THREADSAFE=0", "-fprofile-instr-use="+profile,
		filepath.Join(src, "sqlite3", "sqlite3.c"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clang-22: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "mismatched data") {
			return line
		}
	}
	return ""
}
