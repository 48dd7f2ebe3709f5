package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyInput gives every command an empty file: profgen fails with
// llvm-profdata-22's words and writes nothing. Where llvm merges an empty
// file into an empty profile and exits 0, profgen fails: nothing usable.
func TestEmptyInput(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"show", empty},
		{"show", "--sample", empty},
		{"show", "--all-functions", empty},
		{"overlap", empty, empty},
		{"order", empty},
		{"merge", "--sample", empty},
	} {
		name := strings.Join(args[:len(args)-1], " ")
		out := filepath.Join(dir, "out")
		with := func(out string) []string { return append([]string{args[0], "-o", out}, args[1:]...) }
		_, _, err := runInProcess(with(out))
		_, lErr, lerr := runRef("llvm-profdata-22", with(filepath.Join(dir, "llvm-out")))
		if lerr == nil || err == nil {
			t.Errorf("%s: profgen %v, llvm-profdata-22 %v: both should fail", name, err, lerr)
			continue
		}
		if words := llvmWords(lErr); !strings.Contains(err.Error(), words) {
			t.Errorf("%s: %q lacks llvm's words %q", name, err, words)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: wrote %s", name, out)
		}
	}
	if _, _, err := runInProcess([]string{"merge", "-o", filepath.Join(dir, "m"), empty}); err == nil {
		t.Error("merge of an empty raw alone succeeded")
	}
}

// llvmWords is the last part of llvm's first error line: its message
// without the file name.
func llvmWords(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if _, msg, ok := strings.Cut(line, "error: "); ok {
			return msg[strings.LastIndex(msg, ": ")+2:]
		}
	}
	return stderr
}
