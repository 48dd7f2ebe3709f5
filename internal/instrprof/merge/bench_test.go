package merge_test

import (
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/testutil"
)

// BenchmarkRaws merges 200 sqlite raws of one binary (the test data's
// instr/sqlite, scripts/testdata.d/30-instr.sh), as profgen merge does.
func BenchmarkRaws(b *testing.B) {
	dir := testutil.DataDir(b, "instr", "sqlite", "raw")
	files, _ := filepath.Glob(filepath.Join(dir, "*.profraw"))
	if len(files) < 200 {
		b.Skipf("%d raws in %s, want 200", len(files), dir)
	}
	inputs := make([]merge.Input, 200)
	for i := range inputs {
		inputs[i] = merge.Input{Path: files[i], Weight: 1}
	}
	for _, threads := range []int{1, 2} {
		b.Run(map[int]string{1: "j1", 2: "j2"}[threads], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := merge.Run(inputs, merge.Options{Threads: threads}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
