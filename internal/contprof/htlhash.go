package contprof

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
)

// htlhashPart is how much of a file's head and of its tail the htlhash
// covers.
const htlhashPart = 4096

// HTLHash returns the OpenTelemetry file id of the size-byte file r, as
// the mapping attribute process.executable.build_id.htlhash carries it:
// the first 16 bytes, in lower-case hex, of SHA-256 over the file's first
// 4 KiB, its last 4 KiB (both the whole file when it is shorter; they
// overlap below 8 KiB) and its size as a big-endian 64-bit number.
// Stripped binaries may carry only this id.
func HTLHash(r io.ReaderAt, size int64) (string, error) {
	h := sha256.New()
	head := min(size, htlhashPart)
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, head)); err != nil {
		return "", fmt.Errorf("htlhash: reading the first %d bytes: %w", head, err)
	}
	tail := min(size, htlhashPart)
	if _, err := io.Copy(h, io.NewSectionReader(r, size-tail, tail)); err != nil {
		return "", fmt.Errorf("htlhash: reading the last %d bytes: %w", tail, err)
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(size))
	h.Write(n[:])
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}
