package merge_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/instrprof/raw"
)

func testFile(name string) string { return filepath.Join("..", "testdata", name) }

func output(t *testing.T, inputs []merge.Input, opts merge.Options) (*merge.Result, []byte) {
	t.Helper()
	res, err := merge.Run(inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := indexed.Write(&b, res.Profile); err != nil {
		t.Fatal(err)
	}
	return res, b.Bytes()
}

func TestDeterministic(t *testing.T) {
	names := []string{"ir19-1.profraw", "ir19-2.profraw", "ir19-1.profraw", "ir19-2.profraw", "ir19-2.profraw"}
	var in, rev []merge.Input
	for i, n := range names {
		in = append(in, merge.Input{Path: testFile(n), Weight: uint64(1 + i%2)})
	}
	for i := len(in) - 1; i >= 0; i-- {
		rev = append(rev, in[i])
	}
	// With weights the input order matters, as in llvm-profdata -j=1 (a
	// value first brought by a weighted file is not scaled); the thread
	// count never does.
	for _, order := range [][]merge.Input{in, rev} {
		_, want := output(t, order, merge.Options{Threads: 1})
		for threads := 2; threads <= 4; threads++ {
			if _, got := output(t, order, merge.Options{Threads: threads}); !bytes.Equal(got, want) {
				t.Errorf("%d threads, order from %s: output differs", threads, order[0].Path)
			}
		}
	}
}

func TestFailureModes(t *testing.T) {
	dir := t.TempDir()
	full, _ := os.ReadFile(testFile("ir19-1.profraw"))
	cut := filepath.Join(dir, "cut.profraw")
	os.WriteFile(cut, full[:len(full)-40], 0o644)
	empty := filepath.Join(dir, "empty.profraw")
	os.WriteFile(empty, nil, 0o644)
	in := []merge.Input{{Path: cut, Weight: 1}, {Path: empty, Weight: 1}, {Path: testFile("ir19-2.profraw"), Weight: 1}}

	if _, err := merge.Run(in, merge.Options{Threads: 2}); err == nil || !strings.Contains(err.Error(), cut) {
		t.Errorf("failure mode any: got %v, want an error naming %s", err, cut)
	}
	res, err := merge.Run(in, merge.Options{Threads: 2, KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Merged != 1 || len(res.Skipped) != 2 {
		t.Errorf("merged %d, skipped %v", res.Merged, res.Skipped)
	}
	if s := res.Summary(); !strings.Contains(s, "1 empty") || !strings.Contains(s, "1 damaged") {
		t.Errorf("summary %q", s)
	}
}

// TestLargeCounter: a raw with a counter above 2^56 fails a merge in
// failure mode any; with KeepGoing (all, warn) it is merged as it is, as
// llvm-profdata merges it, counted as suspect and warned of.
func TestLargeCounter(t *testing.T) {
	big := testFile("../../../cmd/profgen/testdata/parity/counter57.profraw")
	in := []merge.Input{{Path: big, Weight: 1}, {Path: testFile("ir19-2.profraw"), Weight: 1}}
	if _, err := merge.Run(in, merge.Options{Threads: 2}); err == nil || !strings.Contains(err.Error(), "excessively large counter value") {
		t.Errorf("failure mode any: got %v, want the large counter's error", err)
	}
	res, err := merge.Run(in, merge.Options{Threads: 2, KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Merged != 2 || res.Suspect != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], big+": offset 0x1e0") {
		t.Errorf("merged %d, suspect %d, warnings %q", res.Merged, res.Suspect, res.Warnings)
	}
	var pick uint64
	for _, f := range res.Profile.Funcs() {
		if f.Name == "pick" {
			pick = f.Counts[0]
		}
	}
	if pick != 1<<57 {
		t.Errorf("pick's first counter %d, want 2^57 (ir19-2's is 0)", pick)
	}
}

func TestMatchID(t *testing.T) {
	buf, _ := os.ReadFile(testFile("ir19-1.profraw"))
	var r raw.Reader
	info, err := r.Read("ir19-1", buf, func(*instrprof.Record, uint64, int64) error { return nil })
	if err != nil || len(info.BinaryIDs) != 1 {
		t.Fatalf("binary ids %x, %v", info.BinaryIDs, err)
	}
	in := []merge.Input{{Path: testFile("ir19-1.profraw"), Weight: 1}, {Path: testFile("ir14.profraw"), Weight: 1}}
	res, err := merge.Run(in, merge.Options{Threads: 2, MatchID: info.BinaryIDs[0]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Merged != 1 || len(res.Skipped) != 1 || res.Skipped[0].Kind != merge.SkipOtherBinary {
		t.Errorf("merged %d, skipped %+v", res.Merged, res.Skipped)
	}
}

// TestNotInstrumentation: a file that is no instrumentation profile is
// reported with a position: a damaged text sample profile by its line.
func TestNotInstrumentation(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ content, want string }{
		{"garbage line\n 1: 2\n", `:1: expected 'mangled_name:NUM:NUM', found "garbage line"`},
		{"main:1:1\n 1: x\n", `:2: expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*'`},
		{"main:1:1\n 1: 1\n", `offset 0x0: a sample profile`},
		{"\x00\x01\x02binary junk....", `offset 0x0: not a raw or indexed instrumentation profile`},
	} {
		path := filepath.Join(dir, "in")
		os.WriteFile(path, []byte(tt.content), 0o644)
		want := path + tt.want
		if tt.want[0] != ':' {
			want = path + ": " + tt.want
		}
		_, err := merge.Run([]merge.Input{{Path: path, Weight: 1}}, merge.Options{Threads: 1})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", tt.content, err, tt.want)
		}
	}
}
