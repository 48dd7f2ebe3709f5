package memprof

import (
	"encoding/binary"
	"fmt"
)

// Section is an indexed profile's MemProf section, read.
type Section struct {
	Version int
	Schema  Schema
	Data    *Data
	// Summary is version 4's; for older versions it is computed from the
	// records, as llvm's reader does.
	Summary Summary
	v2ids   []uint64 // version 2: the call stack hashes records store
}

// ReadSection reads the MemProf section at offset off of the indexed
// profile b. Records come in the order of the record table's payload
// (bucket order), as llvm's reader iterates them.
func ReadSection(b []byte, off uint64) (*Section, error) {
	r := &reader{b: b}
	r.at(off)
	s := &Section{Version: int(r.u64())}
	if r.err == nil && (s.Version < MinVersion || s.Version > MaxVersion) {
		return nil, fmt.Errorf("offset %d: MemProf version %d not supported; requires version between %d and %d, inclusive", off, s.Version, MinVersion, MaxVersion)
	}
	var err error
	if s.Version == 2 {
		err = s.readV2(r)
	} else {
		err = s.readRadix(r)
	}
	if err != nil {
		return nil, err
	}
	if s.Version < 4 {
		s.Summary = Summarize(s.Data)
	}
	return s, nil
}

func (s *Section) readSchema(r *reader) {
	n := r.count(8)
	if r.err == nil && n > NumFields {
		r.fail(fmt.Errorf("memprof schema invalid: %d fields: %w", n, ErrMalformed))
	}
	for range n {
		tag := r.u64()
		if r.err == nil && (tag == 0 || tag > NumFields) {
			r.fail(fmt.Errorf("memprof schema invalid: field %d: %w", tag, ErrMalformed))
		}
		s.Schema = append(s.Schema, int(tag))
	}
}

// readRadix reads versions 3 and 4.
func (s *Section) readRadix(r *reader) error {
	stackPayload, recordPayload, recordTable := r.u64(), r.u64(), r.u64()
	if s.Version >= 4 {
		r.u64() // data access profile
		if n := r.fitting(r.uint(4), 8); r.err == nil && n >= numSummaryFields {
			w := make([]uint64, n)
			for i := range w {
				w[i] = r.u64()
			}
			s.Summary = Summary{w[0], w[1], w[2], w[3], w[4], w[5]}
		}
	}
	s.readSchema(r)
	framesStart := uint64(r.pos)
	if r.err == nil && (stackPayload < framesStart || recordPayload < stackPayload || recordPayload > uint64(len(r.b))) {
		r.fail(fmt.Errorf("section offsets out of order: %w", ErrMalformed))
	}
	if r.err != nil {
		return r.err
	}
	frames := readFrameArray(r, framesStart, (stackPayload-framesStart)/frameSize)
	d := NewData()
	stack := func(pos uint32) StackID {
		return d.AddStack(radixStack(r, stackPayload, recordPayload, pos, frames, d))
	}
	s.Data = d
	return s.readRecords(r, recordTable, stack)
}

func readFrameArray(r *reader, off, n uint64) []Frame {
	r.at(off)
	out := make([]Frame, 0, n)
	for range n {
		f := Frame{Function: r.u64(), LineOffset: uint32(r.uint(4)), Column: uint32(r.uint(4)), Inline: r.bytes(1) != nil && r.b[r.pos-1] != 0}
		out = append(out, f)
	}
	return out
}

// radixStack reads the call stack at pos of the radix array in
// [start, end): its length, then its frame indexes leaf first, a
// negative value a jump forward to a shared part.
func radixStack(r *reader, start, end uint64, pos uint32, frames []Frame, d *Data) []FrameID {
	word := func(i uint64) uint32 {
		if start+4*i+4 > end || r.err != nil {
			r.fail(fmt.Errorf("call stack position %d outside the radix array: %w", i, ErrMalformed))
			return 0
		}
		return binary.LittleEndian.Uint32(r.b[start+4*i:])
	}
	i := uint64(pos)
	n := word(i)
	var out []FrameID
	for uint32(len(out)) < n && r.err == nil {
		i++
		x := word(i)
		if int32(x) < 0 {
			i += uint64(-int64(int32(x)))
			x = word(i)
		}
		if r.err == nil && uint64(x) >= uint64(len(frames)) {
			r.fail(fmt.Errorf("frame index %d of %d: %w", x, len(frames), ErrMalformed))
			break
		}
		if r.err == nil {
			out = append(out, d.AddFrame(frames[x]))
		}
	}
	return out
}

// readRecords reads the record table at off: its bucket index, then the
// entries of each bucket in turn. stackOf turns a record's stored call
// stack id into a stack of d.
func (s *Section) readRecords(r *reader, off uint64, stackOf func(uint32) StackID) error {
	for _, b := range bucketOffsets(r, off) {
		if r.err != nil {
			break
		}
		r.at(b)
		for range r.uint(2) {
			s.readRecord(r, stackOf)
		}
	}
	return r.err
}

func (s *Section) readRecord(r *reader, stackOf func(uint32) StackID) {
	r.u64() // hash
	r.u64() // key length
	dataLen := r.u64()
	guid := r.u64()
	end := uint64(r.pos) + dataLen
	rec := s.Data.Record(guid)
	mibSize := s.Schema.Size()
	for range r.count(4 + mibSize) {
		id := s.readStackID(r)
		m := readMIB(r, s.Schema)
		if r.err != nil {
			return
		}
		rec.AllocSites = append(rec.AllocSites, AllocSite{Stack: stackOf(id), Info: m})
	}
	for range r.count(4) {
		cs := CallSite{Stack: stackOf(s.readStackID(r))}
		if s.Version >= 4 {
			for range r.count(8) {
				cs.Callees = append(cs.Callees, r.u64())
			}
		}
		rec.CallSites = append(rec.CallSites, cs)
	}
	if r.err == nil && uint64(r.pos) != end {
		r.fail(fmt.Errorf("record of %#x: %d bytes, not %d: %w", guid, uint64(r.pos)-(end-dataLen), dataLen, ErrMalformed))
	}
}

// readStackID reads a record's call stack id: version 2's 64-bit hash is
// kept whole in v2stack; later versions store a 32-bit position.
func (s *Section) readStackID(r *reader) uint32 {
	if s.Version == 2 {
		s.v2ids = append(s.v2ids, r.u64())
		return uint32(len(s.v2ids) - 1)
	}
	return uint32(r.uint(4))
}

func readMIB(r *reader, schema Schema) MIB {
	var m MIB
	for _, tag := range schema {
		m.Values[tag-1] = r.uint(Fields[tag-1].Size)
		m.Present |= 1 << tag
	}
	return m
}

// readV2 reads version 2: records whose call stacks are hashes into a
// call stack table, whose frames are hashes into a frame table.
func (s *Section) readV2(r *reader) error {
	recordTable, _, frameTable, _, stackTable := r.u64(), r.u64(), r.u64(), r.u64(), r.u64()
	s.readSchema(r)
	if r.err != nil {
		return r.err
	}
	frames := map[uint64]Frame{}
	eachEntry(r, frameTable, true, func(key uint64, data []byte) {
		if len(data) < frameSize {
			r.fail(fmt.Errorf("frame of %d bytes: %w", len(data), ErrMalformed))
			return
		}
		frames[key] = Frame{Function: binary.LittleEndian.Uint64(data), LineOffset: binary.LittleEndian.Uint32(data[8:]),
			Column: binary.LittleEndian.Uint32(data[12:]), Inline: data[16] != 0}
	})
	stacks := map[uint64][]uint64{}
	eachEntry(r, stackTable, false, func(key uint64, data []byte) {
		ids := make([]uint64, len(data)/8)
		for i := range ids {
			ids[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		stacks[key] = ids
	})
	d := NewData()
	s.Data = d
	stackOf := func(i uint32) StackID {
		var ids []FrameID
		for _, f := range stacks[s.v2ids[i]] {
			fr, ok := frames[f]
			if !ok && r.err == nil {
				r.fail(fmt.Errorf("frame id %#x not in the frame table: %w", f, ErrMalformed))
			}
			ids = append(ids, d.AddFrame(fr))
		}
		return d.AddStack(ids)
	}
	return s.readRecords(r, recordTable, stackOf)
}

// bucketOffsets reads the bucket index of the on-disk hash table at off
// (bucket count, entry count, then an offset per bucket) and returns the
// offsets of the buckets that hold entries.
func bucketOffsets(r *reader, off uint64) []uint64 {
	r.at(off)
	nb, _ := r.u64(), r.u64()
	if r.err == nil && nb > uint64(len(r.b)-r.pos)/8 {
		r.fail(fmt.Errorf("%d buckets: %w", nb, ErrTruncated))
	}
	if r.err != nil {
		return nil
	}
	buckets := make([]uint64, 0, nb)
	for range nb {
		if b := r.u64(); b != 0 {
			buckets = append(buckets, b)
		}
	}
	return buckets
}

// eachEntry calls fn with the key and data of every entry of the on-disk
// hash table whose bucket index is at off; withKeyLen: the entries store
// a key length (the call stack table's do not).
func eachEntry(r *reader, off uint64, withKeyLen bool, fn func(key uint64, data []byte)) {
	for _, b := range bucketOffsets(r, off) {
		if r.err != nil {
			break
		}
		r.at(b)
		for range r.uint(2) {
			r.u64() // hash
			if withKeyLen {
				r.u64()
			}
			n := r.u64()
			key := r.u64()
			data := r.bytes(int(min(n, uint64(len(r.b)))))
			if r.err != nil {
				return
			}
			fn(key, data)
		}
	}
}
