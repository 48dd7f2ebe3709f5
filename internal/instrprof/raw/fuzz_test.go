package raw_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/raw"
)

func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.profraw"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r raw.Reader
		r.Read("fuzz", b, func(rec *instrprof.Record, _ uint64, _ int64) error {
			if len(rec.Counts) == 0 {
				t.Fatal("record without counters")
			}
			return nil
		})
	})
}
