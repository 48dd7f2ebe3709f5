package profmerge

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

const instrTestdata = "../instrprof/testdata/"

// TestOutputVersionOfFrontEndHashes merges front-end raws of clang 19 and
// 22: the version written is the one the clang that made them reads with
// their hash, and a version that makes clang 22 ignore records is warned of.
func TestOutputVersionOfFrontEndHashes(t *testing.T) {
	for _, tt := range []struct {
		raw         string
		ask, want   int
		wantWarning string
	}{
		{"fehash22.profraw", 0, 13, ""},
		{"fehash19.profraw", 0, 12, ""},
		{"fe19.profraw", 0, 13, ""}, // packed hashes: the same in both
		{"ir19-1.profraw", 0, 13, ""},
		{"fehash19.profraw", 13, 13, "12 front-end records carry the function hash of clang 21 or older"},
		{"fehash22.profraw", 12, 12, "12 front-end records carry clang 22's function hash"},
		{"fehash22.profraw", 7, 7, "in this version-7 file"},
		{"fe19.profraw", 12, 12, ""},
	} {
		version, stderr := mergeVersion(t, tt.raw, tt.ask)
		if version != tt.want {
			t.Errorf("%s --output-version=%d: wrote version %d, want %d", tt.raw, tt.ask, version, tt.want)
		}
		if got := strings.Contains(stderr, "warning:"); got != (tt.wantWarning != "") || !strings.Contains(stderr, tt.wantWarning) {
			t.Errorf("%s --output-version=%d: stderr %q, want warning %q", tt.raw, tt.ask, stderr, tt.wantWarning)
		}
	}
}

// mergeVersion merges raw and returns the version word of the output and
// what the merge said.
func mergeVersion(t *testing.T, raw string, version int) (int, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.profdata")
	var stderr bytes.Buffer
	o := &Options{Inputs: Inputs{Args: []string{instrTestdata + raw}}, Output: out, OutputVersion: version}
	if err := Run(&stderr, o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return int(binary.LittleEndian.Uint32(b[8:])), stderr.String()
}

// TestClang22ReadsFrontEndMerge compiles with clang-22 -fprofile-instr-use
// and the default merge of clang 19's raws of a program, then of clang
// 22's: neither makes clang 22 ignore a record as out of date.
func TestClang22ReadsFrontEndMerge(t *testing.T) {
	clang := testutil.Tool(t, "clang-22")
	for _, raw := range []string{"fehash19.profraw", "fehash22.profraw"} {
		out := filepath.Join(t.TempDir(), "out.profdata")
		if err := Run(&bytes.Buffer{}, &Options{Inputs: Inputs{Args: []string{instrTestdata + raw}}, Output: out}); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(clang, "-O1", "-c", "-o", os.DevNull, "-fprofile-instr-use="+out, instrTestdata+"fehash.c")
		msg, err := cmd.CombinedOutput()
		if err != nil || len(msg) > 0 {
			t.Errorf("%s: clang-22: %v\n%s", raw, err, msg)
		}
	}
}

// TestOldRawsNote: a merge of raws of versions 8 (clang 14) and 10 says in
// one line that llvm-profdata 19 to 22 refuse the first; raws of version
// 10 alone, nothing.
func TestOldRawsNote(t *testing.T) {
	for _, tt := range []struct {
		raws []string
		want string // the note's line, "" for none
	}{
		{[]string{"ir14.profraw", "ir19-1.profraw", "ir14.profraw"},
			"profgen merge: note: merged raws that llvm-profdata 19 to 22 refuse (they read version 10 only): 2 of version 8 (clang 14 to 17)\n"},
		{[]string{"ir19-1.profraw", "ir19-2.profraw"}, ""},
	} {
		var args []string
		for _, r := range tt.raws {
			args = append(args, instrTestdata+r)
		}
		var stderr bytes.Buffer
		o := &Options{Inputs: Inputs{Args: args}, Output: filepath.Join(t.TempDir(), "out.profdata")}
		if err := Run(&stderr, o); err != nil {
			t.Fatal(err)
		}
		notes := strings.Count(stderr.String(), "note:")
		if notes != min(len(tt.want), 1) || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: stderr\n%s\nwant the one line %q", tt.raws, stderr.String(), tt.want)
		}
	}
	if got := oldRawsNote(map[int]int{9: 1, 8: 3, 10: 2}); !strings.HasSuffix(got, ": 3 of version 8 (clang 14 to 17), 1 of version 9 (clang 18)") {
		t.Errorf("note of versions 8, 9 and 10: %q", got)
	}
}
