package memprof

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// RawMagic starts a raw MemProf profile ("\x81rforpm\xff" on disk).
const RawMagic = 0xff6d70726f667281

// Raw versions read: 3 (no histograms), 4 (64-bit histogram entries), 5
// (16-bit encoded entries, what clang 20 to 22 write).
var rawVersions = []uint64{3, 4, 5}

const (
	rawHeaderSize  = 48
	segmentSize    = 64 // start, end, offset, build id size, 32 bytes of build id
	maxBuildIDSize = 32
	v3MIBSize      = 132 // the fields up to MaxLifetimeAccessDensity
)

// Errors a caller may decide by (errors.Is); each comes wrapped with the
// byte offset.
var (
	ErrBadMagic    = errors.New("invalid memprof raw profile magic")
	ErrTruncated   = errors.New("truncated profile data")
	ErrVersion     = errors.New("unsupported memprof raw profile version")
	ErrMalformed   = errors.New("malformed memprof raw profile")
	ErrEmpty       = errors.New("empty raw profile file")
	errStackChange = errors.New("memprof raw profile got different call stack for same id")
	errSegChange   = errors.New("memprof raw profile has different segment information")
)

// Segment is one executable mapping of the profiled process.
type Segment struct {
	Start, End, Offset uint64
	BuildID            []byte
}

// Block is the MIB of one allocation context, named by the runtime's
// stack id.
type Block struct {
	StackID uint64
	MIB     MIB
}

// Raw is a raw profile: its dumps merged as llvm-profdata merges them.
type Raw struct {
	Version  uint64 // of the last dump
	Segments []Segment
	Blocks   []Block // in order of first appearance; one per stack id
	// Stacks maps a stack id to its program counters, leaf first;
	// StackOrder lists the ids in order of first appearance.
	Stacks     map[uint64][]uint64
	StackOrder []uint64
}

// IsRaw tells whether b starts like a raw MemProf profile.
func IsRaw(b []byte) bool {
	return len(b) >= 8 && binary.LittleEndian.Uint64(b) == RawMagic
}

// ReadRaw reads a raw profile: one or more dumps, each a header, the
// segments, the MIBs and the call stacks.
func ReadRaw(b []byte) (*Raw, error) {
	if err := checkRaw(b); err != nil {
		return nil, err
	}
	r := &Raw{Stacks: map[uint64][]uint64{}}
	index := map[uint64]int{}
	for off := 0; off < len(b); {
		size := int(binary.LittleEndian.Uint64(b[off+16:]))
		if err := r.readDump(b[off:off+size], off, index); err != nil {
			return nil, err
		}
		off += size
	}
	return r, nil
}

// checkRaw makes the checks llvm's reader makes before reading: the magic,
// a whole header, supported versions, and dumps whose sizes add up to
// the file's.
func checkRaw(b []byte) error {
	if len(b) == 0 {
		return ErrEmpty
	}
	if !IsRaw(b) {
		return fmt.Errorf("offset 0: %w", ErrBadMagic)
	}
	off := 0
	for off < len(b) {
		if len(b)-off < rawHeaderSize {
			return fmt.Errorf("offset %d: header: %w", off, ErrTruncated)
		}
		if v := binary.LittleEndian.Uint64(b[off+8:]); !slices.Contains(rawVersions, v) {
			return fmt.Errorf("offset %d: version %d: %w", off+8, v, ErrVersion)
		}
		size := binary.LittleEndian.Uint64(b[off+16:])
		if size < rawHeaderSize || size > uint64(len(b)-off) {
			return fmt.Errorf("offset %d: dump size %d: %w", off+16, size, ErrMalformed)
		}
		off += int(size)
	}
	return nil
}

// readDump reads one dump (d, at offset base of the file) into r.
func (r *Raw) readDump(d []byte, base int, index map[uint64]int) error {
	version := binary.LittleEndian.Uint64(d[8:])
	rd := &reader{b: d, base: base}
	segs := rd.at(binary.LittleEndian.Uint64(d[24:])).segments()
	mibs := rd.at(binary.LittleEndian.Uint64(d[32:])).blocks(version)
	stacks := rd.at(binary.LittleEndian.Uint64(d[40:])).stacks()
	if rd.err != nil {
		return rd.err
	}
	if r.Segments != nil && !slices.EqualFunc(r.Segments, segs, sameSegment) {
		return fmt.Errorf("offset %d: %w", base, errSegChange)
	}
	r.Version, r.Segments = version, segs
	r.addBlocks(mibs, index)
	for _, s := range stacks {
		old, ok := r.Stacks[s.id]
		if ok && !slices.Equal(old, s.pcs) {
			return fmt.Errorf("offset %d: stack id %d: %w", base, s.id, errStackChange)
		}
		if !ok {
			r.Stacks[s.id] = s.pcs
			r.StackOrder = append(r.StackOrder, s.id)
		}
	}
	return nil
}

func sameSegment(a, b Segment) bool {
	return a.Start == b.Start && a.End == b.End && a.Offset == b.Offset && string(a.BuildID) == string(b.BuildID)
}

// addBlocks merges blocks of a dump: a stack id seen before merges into
// its block (the dumps come from one process).
func (r *Raw) addBlocks(blocks []Block, index map[uint64]int) {
	for _, bl := range blocks {
		if i, ok := index[bl.StackID]; ok {
			r.Blocks[i].MIB.Merge(&bl.MIB)
			continue
		}
		index[bl.StackID] = len(r.Blocks)
		r.Blocks = append(r.Blocks, bl)
	}
}

// BuildIDs lists the build ids of the segments of every dump, once each,
// in order (llvm's message when no binary is given lists them).
func BuildIDs(b []byte) []string {
	if checkRaw(b) != nil {
		return nil
	}
	var ids []string
	for off := 0; off < len(b); off += int(binary.LittleEndian.Uint64(b[off+16:])) {
		rd := &reader{b: b[off:], base: off}
		for _, s := range rd.at(binary.LittleEndian.Uint64(b[off+24:])).segments() {
			if id := BuildIDString(s.BuildID); !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// BuildIDString is a build id in hex, "<None>" when empty.
func BuildIDString(id []byte) string {
	if len(id) == 0 {
		return "<None>"
	}
	return fmt.Sprintf("%x", id)
}
