package sampleprof

import (
	"bytes"
	"errors"
	"io"
	"math"
)

// ErrTooLarge is llvm's error for a size limit no function fits in.
var ErrTooLarge = errors.New("Too much profile data")

// WriteWithSizeLimit writes p in format as Write does, first dropping its
// coldest functions (in SortedFunctions order, from the end) until the
// output takes at most limit bytes, as llvm-profdata merge
// --output-size-limit does (SampleProfileWriter::writeWithSizeLimit with
// its default pruning): after each try it keeps round(n·(limit/size)²)
// of the n functions, dropping at least one. A limit of 0 writes p whole;
// p loses the functions dropped.
func (o WriteOptions) WriteWithSizeLimit(w io.Writer, p *Profile, format Format, limit uint64) error {
	if limit == 0 {
		return o.Write(w, p, format)
	}
	sorted := p.SortedFunctions()
	keys := make(map[*FunctionSamples]string, len(p.Functions))
	for k, f := range p.Functions {
		keys[f] = k
	}
	var buf bytes.Buffer
	for len(p.Functions) > 0 {
		buf.Reset()
		if err := o.Write(&buf, p, format); err != nil {
			return err
		}
		if uint64(buf.Len()) <= limit {
			_, err := w.Write(buf.Bytes())
			return err
		}
		keep := len(sorted) - functionsToDrop(len(sorted), limit, uint64(buf.Len()))
		for _, f := range sorted[keep:] {
			delete(p.Functions, keys[f])
		}
		sorted = sorted[:keep]
	}
	return ErrTooLarge
}

// functionsToDrop is how many of n functions llvm's default pruning drops
// when their output takes size bytes against limit.
func functionsToDrop(n int, limit, size uint64) int {
	d := float64(limit) / float64(size)
	drop := n - int(math.Round(float64(n)*d*d))
	return min(max(drop, 1), n)
}
