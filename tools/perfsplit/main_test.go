package main

import (
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/perfdatafile"
)

// TestPartsHoldEverySampleOnce splits forky's recording (call stacks,
// processes forked from one another) and checks that every part reads
// cleanly, that the samples are dealt in turn, each to one part, and that
// every part keeps the mappings of its samples' processes.
func TestPartsHoldEverySampleOnce(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "callstack", "forky.perf.data")
	whole := countRecords(t, in)
	for _, parts := range []int{1, 3, 16} {
		dir := t.TempDir()
		if err := run([]string{in}, parts, dir, "p"); err != nil {
			t.Fatal(err)
		}
		samples := 0
		for i := range parts {
			c := countRecords(t, filepath.Join(dir, partName("p", i)))
			if want := whole.samples/parts + boolInt(i < whole.samples%parts); c.samples != want {
				t.Errorf("%d parts: part %d has %d samples, want %d", parts, i, c.samples, want)
			}
			if c.samples > 0 && c.mmaps == 0 {
				t.Errorf("%d parts: part %d has samples and no mappings", parts, i)
			}
			samples += c.samples
		}
		if samples != whole.samples {
			t.Errorf("%d parts hold %d samples, the recording %d", parts, samples, whole.samples)
		}
	}
}

type recordCounts struct{ samples, mmaps int }

func countRecords(t *testing.T, path string) recordCounts {
	t.Helper()
	r, err := perfdatafile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var c recordCounts
	for r.Next() {
		switch r.Record().Type {
		case perfdatafile.RecordSample:
			c.samples++
		case perfdatafile.RecordMmap, perfdatafile.RecordMmap2:
			c.mmaps++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
