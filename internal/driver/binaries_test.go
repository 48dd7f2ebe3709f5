package driver

import (
	"context"
	"os"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
)

// TestSymbolizerBuiltOnce: the symbol prefetch's goroutine and the scan
// ask for the primary binary's symbolizer at the same time (as a hybrid
// sample met while the prefetch runs does): one table is built and both
// get it. Run with -race, which caught the unlocked cache before.
func TestSymbolizerBuiltOnce(t *testing.T) {
	opts := newPlan(Options{Binaries: []string{"../../testdata/programs/bin/wordfreq"}, Output: os.DevNull, Quiet: true})
	for range 20 {
		bins, err := openBinaries(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		prefetch := newPrefetcher(opts, bins)
		prefetch.lbrRanges(0, aggregate.New(binary.NewCodeCache(bins.primary())))
		scan, err := bins.symbolizer(0)
		if err != nil {
			t.Fatal(err)
		}
		prefetch.wait()
		if again, _ := bins.symbolizer(0); again != scan {
			t.Fatalf("the symbolizer was built twice: %p, then %p", scan, again)
		}
		bins.Close()
	}
}
