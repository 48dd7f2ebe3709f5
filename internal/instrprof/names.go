package instrprof

import (
	"bytes"
	"compress/zlib"
	"io"
)

// DecodeNames decodes a names section (raw profile names, binary
// __llvm_covnames, indexed vtable names): chunks of ULEB128 uncompressed
// length, ULEB128 compressed length (0 = stored), then the bytes, zlib
// compressed or not; names inside a chunk are separated by 0x01, chunks may
// be followed by zero padding. fn is called for every name.
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
		var text []byte
		if packed == 0 {
			text = d.Bytes(int(min(plain, uint64(d.Remaining()+1))), "names")
		} else {
			z := d.Bytes(int(min(packed, uint64(d.Remaining()+1))), "compressed names")
			if z == nil {
				break
			}
			var err error
			if text, err = inflate(z, plain); err != nil {
				d.FailAt(start, "names chunk: %v", err)
				break
			}
		}
		for _, n := range bytes.Split(text, []byte{1}) {
			fn(string(n))
		}
	}
	return d.Err()
}

func inflate(z []byte, size uint64) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	if size > 1<<30 {
		return nil, io.ErrShortBuffer
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, err
	}
	return out, nil
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
	out := appendULEB(nil, uint64(len(text)))
	if !compress {
		return append(appendULEB(out, 0), text...)
	}
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(text)
	w.Close()
	out = appendULEB(out, uint64(z.Len()))
	return append(out, z.Bytes()...)
}

func appendULEB(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
