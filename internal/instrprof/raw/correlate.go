package raw

import (
	"debug/elf"
	"fmt"
	"sync"

	"github.com/profgen/profgen/internal/instrprof"
)

// Correlation holds what a binary built with -mllvm -profile-correlate=binary
// keeps out of its raw profiles: the function records (section
// __llvm_covdata, with absolute counter addresses) and the names
// (__llvm_covnames), plus the address range of the counters
// (__llvm_prf_cnts) that turns those addresses into offsets. For a binary
// built with -profile-correlate=debug-info, the records and names come
// from its DWARF (OpenDebugInfoCorrelation) and fit raws of any layout.
type Correlation struct {
	Path string
	// fixed marks records that do not depend on the raws' layout (DWARF).
	fixed bool

	covdata            []byte
	covdataOff         int64 // file offset of __llvm_covdata
	cntsAddr, cntsSize uint64
	names              *nameTable

	mu      sync.Mutex
	version int
	recs    []dataRecord
	err     error
}

// OpenCorrelation reads the correlation sections of an ELF binary.
func OpenCorrelation(path string) (*Correlation, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("binary file: %w", err)
	}
	defer f.Close()
	data, names, cnts := f.Section("__llvm_covdata"), f.Section("__llvm_covnames"), f.Section("__llvm_prf_cnts")
	if data == nil || names == nil || cnts == nil {
		return nil, fmt.Errorf("%s: no __llvm_covdata/__llvm_covnames/__llvm_prf_cnts sections: not built with -mllvm -profile-correlate=binary, or stripped", path)
	}
	c := &Correlation{Path: path, covdataOff: int64(data.Offset), cntsAddr: cnts.Addr, cntsSize: cnts.Size}
	if c.covdata, err = data.Data(); err != nil {
		return nil, fmt.Errorf("%s: __llvm_covdata: %w", path, err)
	}
	nb, err := names.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: __llvm_covnames: %w", path, err)
	}
	nd := &instrprof.Decoder{File: path + "(__llvm_covnames)", Base: int64(names.Offset), Buf: nb}
	if c.names, err = decodeNameMap(nd); err != nil {
		return nil, err
	}
	return c, nil
}

// check verifies that a correlated raw header fits the binary and decodes
// the binary's records in that header's layout.
func (c *Correlation) check(h *Header) error {
	if got := h.NumCounters * h.counterSize(); got != c.cntsSize {
		return fmt.Errorf("raw profile has %d bytes of counters, %s's __llvm_prf_cnts has %d: not a profile of this binary", got, c.Path, c.cntsSize)
	}
	if c.fixed {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recs != nil || c.err != nil {
		if c.version != h.FormatVersion() {
			return fmt.Errorf("raw profiles of versions %d and %d for one binary", c.version, h.FormatVersion())
		}
		return c.err
	}
	c.version = h.FormatVersion()
	c.recs, c.err = c.decode(h)
	return c.err
}

// decode turns the binary's records into counter-offset records. A record
// whose counters lie outside __llvm_prf_cnts is an error, as in
// llvm-profdata ("CounterPtr out of range"); merge --failure-mode=all
// then skips the raws of this binary, listing why.
func (c *Correlation) decode(h *Header) ([]dataRecord, error) {
	rd := newRecordDecoder(h)
	size := rd.l.size
	recs := []dataRecord{}
	for off := 0; off+size <= len(c.covdata); off += size {
		dr := rd.decode(c.covdata[off:])
		if dr.counterPtr < c.cntsAddr || dr.counterPtr-c.cntsAddr >= c.cntsSize {
			return nil, &instrprof.FormatError{File: c.Path, Offset: c.covdataOff + int64(off),
				Msg: fmt.Sprintf("__llvm_covdata record %d (function hash %#x): CounterPtr %#x out of range [%#x, %#x) of __llvm_prf_cnts",
					off/size, dr.funcHash, dr.counterPtr, c.cntsAddr, c.cntsAddr+c.cntsSize)}
		}
		dr.counterPtr -= c.cntsAddr
		dr.bitmapPtr, dr.numBitmapBytes, dr.numSites = 0, 0, [instrprof.NumValueKinds]uint16{}
		recs = append(recs, dr)
	}
	return recs, nil
}
