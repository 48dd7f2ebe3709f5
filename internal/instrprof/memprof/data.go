package memprof

import (
	"encoding/binary"

	"lukechampine.com/blake3"

	"github.com/profgen/profgen/internal/sampleprof"
)

// Frame is one frame of an allocation context: the function (the GUID of
// its canonical linkage name), the line of the call relative to the
// function's first line, its column, and whether it is an inlined copy.
type Frame struct {
	Function   uint64
	LineOffset uint32
	Column     uint32
	Inline     bool
}

// FrameID names a frame by its contents (BLAKE3, truncated to 8 bytes, as
// llvm's IndexedMemProfData::hashFrame); version 2 stores these ids.
type FrameID uint64

// StackID names a call stack by its frame ids, hashed the same way.
type StackID uint64

// AllocSite is one allocation context of a function: its call stack,
// leaf first, and its statistics.
type AllocSite struct {
	Stack StackID
	Info  MIB
}

// CallSite is a call in a function that is part of some allocation
// context: the inline frames at the call, leaf first, and (version 4)
// the GUIDs of its callees.
type CallSite struct {
	Stack   StackID
	Callees []uint64
}

// Record is the MemProf profile of one function.
type Record struct {
	GUID       uint64
	AllocSites []AllocSite
	CallSites  []CallSite
}

// Data is a symbolized MemProf profile: what an indexed profile's MemProf
// section holds. Tables keep their insertion order, which the writers
// follow where llvm's output depends on it.
type Data struct {
	Records    []*Record
	byGUID     map[uint64]*Record
	Frames     map[FrameID]Frame
	FrameOrder []FrameID
	Stacks     map[StackID][]FrameID
	StackOrder []StackID
}

// NewData returns an empty profile.
func NewData() *Data {
	return &Data{byGUID: map[uint64]*Record{}, Frames: map[FrameID]Frame{}, Stacks: map[StackID][]FrameID{}}
}

// Record returns the record of the function, added at the end when new.
func (d *Data) Record(guid uint64) *Record {
	if r, ok := d.byGUID[guid]; ok {
		return r
	}
	r := &Record{GUID: guid}
	d.byGUID[guid] = r
	d.Records = append(d.Records, r)
	return r
}

// AddFrame adds a frame and returns its id.
func (d *Data) AddFrame(f Frame) FrameID {
	var b [17]byte
	binary.LittleEndian.PutUint64(b[0:], f.Function)
	binary.LittleEndian.PutUint32(b[8:], f.LineOffset)
	binary.LittleEndian.PutUint32(b[12:], f.Column)
	if f.Inline {
		b[16] = 1
	}
	id := FrameID(hash8(b[:]))
	if _, ok := d.Frames[id]; !ok {
		d.Frames[id] = f
		d.FrameOrder = append(d.FrameOrder, id)
	}
	return id
}

// AddStack adds a call stack (frame ids, leaf first) and returns its id.
func (d *Data) AddStack(frames []FrameID) StackID {
	b := make([]byte, 0, 8*len(frames))
	for _, f := range frames {
		b = binary.LittleEndian.AppendUint64(b, uint64(f))
	}
	id := StackID(hash8(b))
	if _, ok := d.Stacks[id]; !ok {
		d.Stacks[id] = append([]FrameID(nil), frames...)
		d.StackOrder = append(d.StackOrder, id)
	}
	return id
}

// StackFrames returns the frames of a call stack, leaf first.
func (d *Data) StackFrames(id StackID) []Frame {
	ids := d.Stacks[id]
	out := make([]Frame, len(ids))
	for i, f := range ids {
		out[i] = d.Frames[f]
	}
	return out
}

// hash8 is the first 8 bytes of the BLAKE3 digest of b, little-endian.
func hash8(b []byte) uint64 {
	sum := blake3.Sum256(b)
	return binary.LittleEndian.Uint64(sum[:8])
}

// GUIDOf is the GUID of a function name as MemProf computes it
// (memprof::getGUID): the MD5 of its canonical name.
func GUIDOf(name string) uint64 {
	return sampleprof.MD5Name(sampleprof.CanonicalName(name))
}
