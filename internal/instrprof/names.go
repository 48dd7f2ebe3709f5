package instrprof

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/inflate"
	"github.com/profgen/profgen/internal/leb128"
)

// DecodeNames decodes a names section (raw profile names, binary
// __llvm_covnames, indexed vtable names): chunks of ULEB128 uncompressed
// length, ULEB128 compressed length (0 = stored), then the bytes, zlib
// compressed or not; names inside a chunk are separated by 0x01, chunks may
// be followed by zero padding. fn is called for every name; empty names
// are skipped, as LLVM's reader does. A compressed chunk is inflated as a
// stream, never whole, and may not declare more than inflate.Limit of its
// compressed size.
func DecodeNames(d *Decoder, fn func(name string)) error {
	for d.Remaining() > 0 && d.Err() == nil {
		if d.Buf[d.Off] == 0 {
			d.Off++
			continue
		}
		start := d.Pos()
		plain := d.ULEB128("names chunk length")
		packed := d.ULEB128("names chunk compressed length")
		if d.Err() != nil {
			break
		}
		if packed == 0 {
			splitNames(d.Bytes(int(min(plain, uint64(d.Remaining()+1))), "names"), fn)
			continue
		}
		z := d.Bytes(int(min(packed, uint64(d.Remaining()+1))), "compressed names")
		if z == nil {
			break
		}
		if err := streamNames(z, plain, fn); err != nil {
			d.FailAt(start, "names chunk: %v", err)
		}
	}
	return d.Err()
}

func splitNames(text []byte, fn func(string)) {
	for len(text) > 0 {
		name, rest, _ := bytes.Cut(text, []byte{1})
		if len(name) > 0 {
			fn(string(name))
		}
		text = rest
	}
}

// streamNames inflates z, which must hold exactly size bytes, one name at
// a time.
func streamNames(z []byte, size uint64, fn func(string)) error {
	if err := inflate.Check(size, int64(len(z))); err != nil {
		return err
	}
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return err
	}
	defer zr.Close()
	br := bufio.NewReaderSize(inflate.Reader(zr, int64(size)), 1<<16)
	var name []byte
	var total uint64
	for {
		chunk, err := br.ReadSlice(1)
		total += uint64(len(chunk))
		name = append(name, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := bytes.TrimSuffix(name, []byte{1}); len(n) > 0 {
			fn(string(n))
		}
		name = name[:0]
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if total != size {
		return fmt.Errorf("inflated to %d bytes, the chunk declares %d", total, size)
	}
	return nil
}

// EncodeNames encodes names as one names chunk, zlib compressed when
// compress is set (the format DecodeNames reads).
func EncodeNames(names []string, compress bool) []byte {
	text := []byte{}
	for i, n := range names {
		if i > 0 {
			text = append(text, 1)
		}
		text = append(text, n...)
	}
	out := leb128.AppendUint(nil, uint64(len(text)))
	if !compress {
		return append(leb128.AppendUint(out, 0), text...)
	}
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(text)
	w.Close()
	out = leb128.AppendUint(out, uint64(z.Len()))
	return append(out, z.Bytes()...)
}
