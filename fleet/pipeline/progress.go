package pipeline

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressEvery is how often the progress line is written.
const progressEvery = 2 * time.Second

// startProgress writes, while the pipeline runs, a line on w with the
// inputs and bytes this process's workers read (with the embedded prism
// runner and LOOPBACK workers, the whole job's) whenever they changed;
// stop ends it.
func startProgress(w io.Writer) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		var last int64
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				n := progressInputs.Load()
				if n == last {
					continue
				}
				last = n
				fmt.Fprintf(w, "profgen-fleet: %d inputs read (%.1f MB)\n", n, float64(progressBytes.Load())/1e6)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
