package pprofread

import (
	"errors"
	"fmt"

	"github.com/profgen/profgen/internal/leb128"
)

// checkPprofRefs checks what github.com/google/pprof's decoder checks once
// the messages are read (string indexes, ids, references, value counts),
// so that a profile it would refuse is refused with the byte offset of the
// message at fault. Field numbers are those of profile.proto.
func checkPprofRefs(b []byte) error {
	t, err := collectPprofTables(b)
	if err != nil {
		return err
	}
	last := lastOffsets(b, 0)
	return forFields(b, 0, func(f pbField) error {
		switch f.num {
		case 1, 11: // sample_type, period_type: ValueType{type, unit}
			return t.checkStrings(f, 1, 2)
		case 2:
			return t.checkSample(f)
		case 3: // mapping: filename, build_id
			return t.checkStrings(f, 5, 6)
		case 4:
			return t.checkLocation(f)
		case 5: // function: name, system_name, filename
			return t.checkStrings(f, 2, 3, 4)
		case 13: // comment
			return t.checkIndex(f.val, f.off, "string index")
		case 7, 8, 14, 15: // drop_frames, keep_frames, default_sample_type, doc_url: the last one counts
			if f.off == last[f.num] {
				return t.checkIndex(f.val, f.off, "string index")
			}
		}
		return nil
	})
}

// pbField is one field of a protobuf message: its number, its value
// (varint and fixed wire types), its bytes (length-delimited) and the file
// offset of its key.
type pbField struct {
	num, wire, val uint64
	data           []byte
	off            int
}

// forFields calls fn for each field of the message b, which starts at
// file offset base.
func forFields(b []byte, base int, fn func(pbField) error) error {
	for off := 0; off < len(b); {
		key, kn := pbVarint(b[off:])
		if kn <= 0 { // field number 0 is skipped, as pprof does
			return &Error{Offset: int64(base + off), Err: errors.New("bad field key")}
		}
		f := pbField{num: key >> 3, wire: key & 7, off: base + off}
		n := kn
		switch f.wire {
		case 0:
			v, vn := pbVarint(b[off+n:])
			if vn <= 0 {
				return &Error{Offset: int64(f.off), Err: fmt.Errorf("field %d: bad varint", f.num)}
			}
			f.val, n = v, n+vn
		case 1, 5:
			size := 8 >> (f.wire / 5) // 8 bytes for wire type 1, 4 for 5
			if len(b)-off-n < size {
				return &Error{Offset: int64(f.off), Err: fmt.Errorf("field %d: truncated", f.num)}
			}
			n += size
		case 2:
			l, ln := pbVarint(b[off+n:])
			if ln <= 0 || l > uint64(len(b)-off-n-ln) {
				return &Error{Offset: int64(f.off), Err: fmt.Errorf("field %d: length runs past the message", f.num)}
			}
			f.data, n = b[off+n+ln:off+n+ln+int(l)], n+ln+int(l)
		default:
			return &Error{Offset: int64(f.off), Err: fmt.Errorf("field %d: unknown wire type %d", f.num, f.wire)}
		}
		if err := fn(f); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// varints returns a repeated integer field's values: one varint, or a
// packed run of them.
func (f pbField) varints() ([]uint64, error) {
	if f.wire == 0 {
		return []uint64{f.val}, nil
	}
	var out []uint64
	for b := f.data; len(b) > 0; {
		v, n := pbVarint(b)
		if n <= 0 {
			return nil, &Error{Offset: int64(f.off), Err: fmt.Errorf("field %d: bad packed varint", f.num)}
		}
		out, b = append(out, v), b[n:]
	}
	return out, nil
}

// pprofTables are the counts and ids the references are checked against.
type pprofTables struct {
	strings, sampleTypes, samples  uint64
	mappings, functions, locations map[uint64]bool
}

func collectPprofTables(b []byte) (*pprofTables, error) {
	t := &pprofTables{mappings: map[uint64]bool{}, functions: map[uint64]bool{}, locations: map[uint64]bool{}}
	err := forFields(b, 0, func(f pbField) error {
		switch f.num {
		case 1:
			t.sampleTypes++
		case 2:
			t.samples++
		case 6:
			t.strings++
		case 3:
			return t.addID(f, t.mappings, "mapping")
		case 4:
			return t.addID(f, t.locations, "location")
		case 5:
			return t.addID(f, t.functions, "function")
		}
		return nil
	})
	if err == nil && t.samples > 0 && t.sampleTypes == 0 {
		err = &Error{Offset: -1, Err: errors.New("samples but no sample type")}
	}
	return t, err
}

// addID records the id (field 1) of a mapping, location or function,
// refusing 0 and duplicates as pprof does.
func (t *pprofTables) addID(f pbField, ids map[uint64]bool, what string) error {
	var id uint64
	err := forFields(f.data, f.off, func(g pbField) error {
		if g.num == 1 {
			id = g.val
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case id == 0:
		return &Error{Offset: int64(f.off), Err: fmt.Errorf("%s with the reserved id 0", what)}
	case ids[id]:
		return &Error{Offset: int64(f.off), Err: fmt.Errorf("a second %s with id %d", what, id)}
	}
	ids[id] = true
	return nil
}

func (t *pprofTables) checkIndex(i uint64, off int, what string) error {
	if i >= t.strings {
		return &Error{Offset: int64(off), Err: fmt.Errorf("%s %d outside the string table of %d strings", what, i, t.strings)}
	}
	return nil
}

// checkStrings checks the string-index fields nums of a message, each
// singular: when one repeats, its last value counts, as in pprof's decoder.
func (t *pprofTables) checkStrings(f pbField, nums ...uint64) error {
	last := lastOffsets(f.data, f.off)
	return forFields(f.data, f.off, func(g pbField) error {
		for _, n := range nums {
			if g.num == n && g.off == last[n] {
				return t.checkIndex(g.val, g.off, "string index")
			}
		}
		return nil
	})
}

// lastOffsets returns the file offset of the last occurrence of each field
// of the message b, which starts at file offset base. A malformed message
// gives what precedes the fault (the checks report the fault).
func lastOffsets(b []byte, base int) map[uint64]int {
	last := map[uint64]int{}
	_ = forFields(b, base, func(f pbField) error {
		last[f.num] = f.off
		return nil
	})
	return last
}

// checkSample checks a sample's location ids, value count and labels.
func (t *pprofTables) checkSample(f pbField) error {
	values := uint64(0)
	err := forFields(f.data, f.off, func(g pbField) error {
		switch g.num {
		case 1:
			ids, err := g.varints()
			for _, id := range ids {
				if err == nil && !t.locations[id] {
					err = &Error{Offset: int64(g.off), Err: fmt.Errorf("sample refers to location %d, which the profile lacks", id)}
				}
			}
			return err
		case 2:
			vs, err := g.varints()
			values += uint64(len(vs))
			return err
		case 3:
			return t.checkLabel(g)
		}
		return nil
	})
	if err == nil && values != t.sampleTypes {
		err = &Error{Offset: int64(f.off), Err: fmt.Errorf("sample has %d values for %d sample types", values, t.sampleTypes)}
	}
	return err
}

// checkLabel checks a label's key and, when set, its string and unit.
func (t *pprofTables) checkLabel(f pbField) error {
	return forFields(f.data, f.off, func(g pbField) error {
		if g.num == 1 || (g.num == 2 || g.num == 4) && g.val != 0 {
			return t.checkIndex(g.val, g.off, "label string index")
		}
		return nil
	})
}

// checkLocation checks the functions of a location's lines (a mapping
// the profile lacks is no error to pprof: the location has none).
func (t *pprofTables) checkLocation(f pbField) error {
	return forFields(f.data, f.off, func(g pbField) error {
		switch {
		case g.num == 4: // line: function_id
			fn := uint64(0)
			if err := forFields(g.data, g.off, func(h pbField) error {
				if h.num == 1 {
					fn = h.val
				}
				return nil
			}); err != nil {
				return err
			}
			if !t.functions[fn] {
				return &Error{Offset: int64(g.off), Err: fmt.Errorf("location line refers to function %d, which the profile lacks", fn)}
			}
		}
		return nil
	})
}

// pbVarint reads a protobuf varint (a ULEB128) as pprof's decoder does:
// at most ten bytes, bits past 64 dropped (binary.Uvarint refuses them).
// n is 0 when there is none.
func pbVarint(b []byte) (v uint64, n int) {
	v, n = leb128.Uint(b[:min(len(b), 10)])
	if n == 0 {
		return 0, 0
	}
	return v, n
}
