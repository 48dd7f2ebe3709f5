// Package inflate bounds decompression of untrusted input. Every
// compressed block profgen reads (raw profile names, extbinary sections,
// gzipped pprof, compressed ELF debug sections) may inflate to at most
// Limit(compressed size) bytes: LLVM's, gzip's and the linkers' output of
// real profiles and debug info compresses 3–10×, while a bomb reaches
// 1000×. In: compressed bytes or a stream and the size the format
// declares. Out: the inflated bytes, or ErrTooLarge.
package inflate

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// Ratio and Budget define Limit: Budget bytes for any block, plus Ratio
// bytes per compressed byte.
const (
	Ratio  = 32
	Budget = 16 << 20
)

// ErrTooLarge is the cause of every refusal of an oversized block.
var ErrTooLarge = errors.New("inflates beyond the limit for its compressed size (a compression bomb?)")

// Limit is the most bytes n compressed bytes may inflate to.
func Limit(n int64) int64 { return Budget + Ratio*max(n, 0) }

// Check refuses a block of n compressed bytes declaring size bytes
// inflated.
func Check(size uint64, n int64) error {
	if size > uint64(Limit(n)) {
		return fmt.Errorf("declares %d bytes from %d compressed (limit %d): %w", size, n, Limit(n), ErrTooLarge)
	}
	return nil
}

// Zlib inflates z, which must hold exactly size bytes, after Check.
func Zlib(z []byte, size uint64) ([]byte, error) {
	if err := Check(size, int64(len(z))); err != nil {
		return nil, err
	}
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("inflating %d bytes: %w", size, err)
	}
	if n, _ := zr.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("inflates to more than the %d bytes declared", size)
	}
	return out, nil
}

// Reader returns r's bytes up to limit; reading more fails with an error
// wrapping ErrTooLarge.
func Reader(r io.Reader, limit int64) io.Reader { return &limited{r: r, left: limit, limit: limit} }

type limited struct {
	r           io.Reader
	left, limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One more byte tells a stream of exactly limit bytes from a longer one.
		var b [1]byte
		if n, err := l.r.Read(b[:]); n == 0 {
			return 0, err
		}
		return 0, fmt.Errorf("more than %d bytes: %w", l.limit, ErrTooLarge)
	}
	n, err := l.r.Read(p[:min(int64(len(p)), l.left)])
	l.left -= int64(n)
	return n, err
}
