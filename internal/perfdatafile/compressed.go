package perfdatafile

import (
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// perf record -z compresses the ring-buffer data into PERF_RECORD_COMPRESSED
// records holding one zstd stream: each record continues the stream and
// ends on a flushed block, so that its data can be decompressed when the
// record is reached (perf processes the events it holds there, before the
// FINISHED_ROUND records that follow it). An event may be cut by the end
// of one record's data and continue in the next.
//
// github.com/klauspost/compress/zstd decodes the stream: pure Go, widely
// used and maintained, streaming with a bounded window. Its decoder pulls
// its input; to stop exactly at the end of a record's data, it runs on its
// own goroutine, fed one record at a time, writing what it decodes into
// the Reader's buffer (zstream.decode hands the buffer over and back).

// maxWindow bounds the zstd window (perf uses level 1, a window of a few
// MiB at most).
const maxWindow = 64 << 20

var errTooBig = errors.New("decompressed data exceeds the limit")

type zstream struct {
	in    chan []byte // compressed data of the next record; closed at the end
	done  chan error  // nil: the record's data is consumed; else the stream failed
	buf   []byte      // decompressed data, owned by the decoder while it runs
	limit int
	cur   []byte // what is left of the current input
	dead  error
}

func newZstream() *zstream {
	z := &zstream{in: make(chan []byte), done: make(chan error, 1)}
	go z.run()
	return z
}

func (z *zstream) run() {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderLowmem(true))
	if err == nil {
		err = dec.Reset(z)
	}
	if err == nil {
		_, err = dec.WriteTo(z)
		dec.Close()
	}
	if err == nil {
		err = io.ErrUnexpectedEOF // the input ended
	}
	z.done <- err
}

// Read feeds the decoder: the current record's data, then, once it is
// consumed, the next record's (after telling decode the record is done).
func (z *zstream) Read(p []byte) (int, error) {
	for len(z.cur) == 0 {
		if z.cur != nil {
			z.done <- nil
		}
		b, ok := <-z.in
		if !ok {
			return 0, io.EOF
		}
		z.cur = b
	}
	n := copy(p, z.cur)
	z.cur = z.cur[n:]
	if len(z.cur) == 0 {
		z.cur = z.cur[:0:0] // empty, not nil: consumed
	}
	return n, nil
}

// Write collects decoded data.
func (z *zstream) Write(p []byte) (int, error) {
	if len(z.buf)+len(p) > z.limit {
		return 0, errTooBig
	}
	z.buf = append(z.buf, p...)
	return len(p), nil
}

// decode decompresses one record's data, appending it to dst (at most
// limit bytes in all).
func (z *zstream) decode(data, dst []byte, limit int) ([]byte, error) {
	if z.dead != nil {
		return dst, z.dead
	}
	if len(data) == 0 {
		return dst, nil
	}
	z.buf, z.limit = dst, limit
	z.in <- data
	err := <-z.done
	out := z.buf
	z.buf = nil
	if err != nil {
		z.dead = err
		close(z.in)
	}
	return out, err
}

func (z *zstream) close() {
	if z.dead == nil {
		z.dead = io.EOF
		close(z.in)
	}
}

// decompress reads a COMPRESSED record: its data is decompressed after
// what is left of the previous one, and its records come next.
func (r *Reader) decompress(rec []byte, off int64) {
	if r.z == nil {
		r.z = newZstream()
	}
	rest := 0
	if r.zbuf != nil {
		rest = copy(r.zbuf, r.zbuf[r.zpos:])
		r.zdone += int64(r.zpos)
	}
	out, err := r.z.decode(rec[eventHdr:], r.zbuf[:rest], r.MaxDecompressed)
	if errors.Is(err, errTooBig) {
		r.errorf(off, "compressed record decompresses to more than %d MiB", r.MaxDecompressed>>20)
		return
	}
	if err != nil {
		r.errorf(off, "compressed record: zstd: %v", err)
		return
	}
	r.zbuf, r.zpos, r.zfrom = out, 0, off
}

// nextDecompressed makes the next whole record of the decompressed data
// current; false when none is left (what remains of a cut record waits
// for the next compressed record).
func (r *Reader) nextDecompressed() bool {
	b := r.zbuf[r.zpos:]
	if len(b) < eventHdr {
		return false
	}
	size := int(le.Uint16(b[6:]))
	if size < eventHdr {
		r.err = &FormatError{File: r.name, Offset: r.zfrom, InCompressed: true, Inner: r.zdone + int64(r.zpos),
			Msg: fmt.Sprintf("record size %d is smaller than its header", size)}
		return false
	}
	if size > len(b) {
		return false
	}
	inner := r.zdone + int64(r.zpos)
	r.zpos += size
	r.rec = Record{Type: le.Uint32(b), Misc: le.Uint16(b[4:]), Data: b[:size:size], Offset: r.zfrom, InCompressed: true, Inner: inner}
	return true
}
