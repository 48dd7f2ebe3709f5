package memprof

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/instrprof/ondisk"
)

// Indexed MemProf versions written: 2 (hash tables of frames and call
// stacks), 3 (a frame array and a radix tree of call stacks, linear ids;
// llvm-profdata-22's default) and 4 (3 with call sites' callee GUIDs and
// the summary).
const (
	MinVersion     = 2
	DefaultVersion = 3
	MaxVersion     = 4
)

// WriteOptions choose the indexed MemProf format.
type WriteOptions struct {
	Version    int  // 2, 3 or 4; 0: DefaultVersion
	FullSchema bool // every MIB field, not only the hot/cold ones
}

// AppendSection appends d as the MemProf section of an indexed profile to
// b, whose start is offset base of the file (the section's offsets are
// the file's).
func AppendSection(b []byte, base uint64, d *Data, opts WriteOptions) ([]byte, error) {
	version := opts.Version
	if version == 0 {
		version = DefaultVersion
	}
	if version < MinVersion || version > MaxVersion {
		return nil, fmt.Errorf("MemProf version %d not supported; requires version between %d and %d, inclusive", version, MinVersion, MaxVersion)
	}
	schema := HotColdSchema()
	if opts.FullSchema {
		schema = FullSchema()
	}
	w := &sectionWriter{b: b, base: base, d: d, schema: schema, version: version}
	if version == 2 {
		w.writeV2()
	} else {
		w.writeRadix()
	}
	return w.b, nil
}

// sectionWriter appends one MemProf section.
type sectionWriter struct {
	b       []byte
	base    uint64
	d       *Data
	schema  Schema
	version int
	// stackPos maps a call stack to its position in the radix array
	// (versions 3 and 4).
	stackPos map[StackID]uint32
}

func (w *sectionWriter) tell() uint64 { return w.base + uint64(len(w.b)) }

func (w *sectionWriter) u64(vs ...uint64) {
	for _, v := range vs {
		w.b = binary.LittleEndian.AppendUint64(w.b, v)
	}
}

// header reserves n offset words after the version and returns where.
func (w *sectionWriter) header(n int) int {
	w.u64(uint64(w.version))
	at := len(w.b)
	w.u64(make([]uint64, n)...)
	return at
}

func (w *sectionWriter) patch(at int, vs ...uint64) {
	for i, v := range vs {
		binary.LittleEndian.PutUint64(w.b[at+8*i:], v)
	}
}

func (w *sectionWriter) writeSchema() {
	w.u64(uint64(len(w.schema)))
	for _, tag := range w.schema {
		w.u64(uint64(tag))
	}
}

// writeV2: header (record table, frame payload, frame table, call stack
// payload, call stack table), schema, then the three hash tables.
func (w *sectionWriter) writeV2() {
	at := w.header(5)
	w.writeSchema()
	records := w.recordTable()
	framePayload := w.tell()
	frames := w.frameTable()
	stackPayload := w.tell()
	stacks := w.stackTable()
	w.patch(at, records, framePayload, frames, stackPayload, stacks)
}

// writeRadix writes versions 3 and 4: header (call stack payload, record
// payload, record table; 4: data access profile), 4's summary, schema,
// the frame array, the call stack radix array, the record table.
func (w *sectionWriter) writeRadix() {
	n := 3
	if w.version >= 4 {
		n = 4
	}
	at := w.header(n)
	if w.version >= 4 {
		w.b = binary.LittleEndian.AppendUint32(w.b, numSummaryFields)
		w.u64(Summarize(w.d).words()...)
	}
	w.writeSchema()
	hist := frameHistogram(w.d)
	index := w.frameArray(hist)
	stackPayload := w.tell()
	w.radixArray(hist, index)
	recordPayload := w.tell()
	records := w.recordTable()
	w.patch(at, stackPayload, recordPayload, records)
}

func appendFrame(b []byte, f Frame) []byte {
	b = binary.LittleEndian.AppendUint64(b, f.Function)
	b = binary.LittleEndian.AppendUint32(b, f.LineOffset)
	b = binary.LittleEndian.AppendUint32(b, f.Column)
	if f.Inline {
		return append(b, 1)
	}
	return append(b, 0)
}

const frameSize = 17

// appendMIB appends the schema's fields of m, each in its size.
func appendMIB(b []byte, m *MIB, schema Schema) []byte {
	for _, tag := range schema {
		if Fields[tag-1].Size == 4 {
			b = binary.LittleEndian.AppendUint32(b, uint32(m.Get(tag)))
		} else {
			b = binary.LittleEndian.AppendUint64(b, m.Get(tag))
		}
	}
	return b
}

// recordTable writes the records' hash table (keyed by GUID) and returns
// its offset.
func (w *sectionWriter) recordTable() uint64 {
	recs := w.d.Records
	var off uint64
	w.b, off = ondisk.Emit(w.b, w.base, len(recs), func(i int) uint64 { return recs[i].GUID },
		func(b []byte, i int) []byte { return w.appendRecordEntry(b, recs[i]) })
	return off
}

func (w *sectionWriter) appendRecordEntry(b []byte, r *Record) []byte {
	data := w.appendRecord(nil, r)
	b = binary.LittleEndian.AppendUint64(b, 8)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(data)))
	b = binary.LittleEndian.AppendUint64(b, r.GUID)
	return append(b, data...)
}

// appendRecord serializes a record: allocation sites (call stack id, MIB)
// and call sites (call stack id; version 4: callee GUIDs).
func (w *sectionWriter) appendRecord(b []byte, r *Record) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(len(r.AllocSites)))
	for i := range r.AllocSites {
		b = w.appendStackID(b, r.AllocSites[i].Stack)
		b = appendMIB(b, &r.AllocSites[i].Info, w.schema)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(r.CallSites)))
	for _, cs := range r.CallSites {
		b = w.appendStackID(b, cs.Stack)
		if w.version >= 4 {
			b = binary.LittleEndian.AppendUint64(b, uint64(len(cs.Callees)))
			for _, g := range cs.Callees {
				b = binary.LittleEndian.AppendUint64(b, g)
			}
		}
	}
	return b
}

// appendStackID appends a call stack's id: its hash in version 2, its
// radix array position after.
func (w *sectionWriter) appendStackID(b []byte, id StackID) []byte {
	if w.version == 2 {
		return binary.LittleEndian.AppendUint64(b, uint64(id))
	}
	return binary.LittleEndian.AppendUint32(b, w.stackPos[id])
}

// frameTable writes version 2's frame hash table in insertion order.
func (w *sectionWriter) frameTable() uint64 {
	ids := w.d.FrameOrder
	var off uint64
	w.b, off = ondisk.Emit(w.b, w.base, len(ids), func(i int) uint64 { return uint64(ids[i]) },
		func(b []byte, i int) []byte {
			b = binary.LittleEndian.AppendUint64(b, 8)
			b = binary.LittleEndian.AppendUint64(b, frameSize)
			b = binary.LittleEndian.AppendUint64(b, uint64(ids[i]))
			return appendFrame(b, w.d.Frames[ids[i]])
		})
	return off
}

// stackTable writes version 2's call stack hash table: the data length
// only (keys are 8 bytes), the key, the frame ids.
func (w *sectionWriter) stackTable() uint64 {
	ids := w.d.StackOrder
	var off uint64
	w.b, off = ondisk.Emit(w.b, w.base, len(ids), func(i int) uint64 { return uint64(ids[i]) },
		func(b []byte, i int) []byte {
			frames := w.d.Stacks[ids[i]]
			b = binary.LittleEndian.AppendUint64(b, uint64(8*len(frames)))
			b = binary.LittleEndian.AppendUint64(b, uint64(ids[i]))
			for _, f := range frames {
				b = binary.LittleEndian.AppendUint64(b, uint64(f))
			}
			return b
		})
	return off
}
