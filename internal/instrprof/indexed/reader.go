package indexed

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/memprof"
)

// Info describes an indexed file.
type Info struct {
	Version   int
	Kind      instrprof.Kind
	BinaryIDs [][]byte
	Records   int
	// Traces are the temporal profile traces, TraceStream how many traces
	// the profile's inputs saw.
	Traces      []instrprof.Trace
	TraceStream uint64
	// VTableNames are the names of the profiled vtables (v12 on).
	VTableNames []string
	// MemProf is the MemProf section (v8 on, with the MemProf kind), nil
	// for none.
	MemProf *memprof.Section
}

// Func receives each record with the file offset of its hash-table entry.
type Func func(rec *instrprof.Record, off int64) error

// ReadFile reads an indexed profile of size bytes from ra.
func ReadFile(file string, ra io.ReaderAt, size int64, fn Func) (Info, error) {
	buf := make([]byte, size)
	if n, err := ra.ReadAt(buf, 0); n < int(size) {
		return Info{}, fmt.Errorf("%s: %w", file, err)
	}
	return Read(file, buf, fn)
}

// Read reads the indexed profile in buf, calling fn for every record in
// hash-table order.
func Read(file string, buf []byte, fn Func) (Info, error) {
	d := &instrprof.Decoder{File: file, Buf: buf}
	var info Info
	if d.U64("magic") != Magic && d.Err() == nil {
		d.FailAt(0, "bad magic: not an indexed profile")
	}
	ver := d.U64("version")
	info.Version = int(uint32(ver))
	info.Kind = instrprof.Kind(ver) & instrprof.KindMask
	if d.Err() == nil && (info.Version < 1 || info.Version > Version) {
		d.FailAt(8, "indexed profile version %d is not supported (1 to %d are)", info.Version, Version)
	}
	d.U64("header")
	if ht := d.U64("hash type"); ht != 0 && d.Err() == nil {
		d.FailAt(24, "hash type %d is not supported (0 = MD5 is)", ht)
	}
	tableOff := d.U64("hash table offset")
	var memOff uint64
	if info.Version >= 8 {
		memOff = d.U64("memprof offset")
	}
	var idsOff uint64
	if info.Version >= 9 {
		idsOff = d.U64("binary ids offset")
		if idsOff == 0 && d.Err() == nil {
			d.FailAt(48, "binary ids offset is 0: the file header is corrupt")
		}
	}
	var tracesOff uint64
	if info.Version >= 10 {
		tracesOff = d.U64("temporal offset")
	}
	var vtabOff uint64
	if info.Version >= 12 {
		vtabOff = d.U64("vtable names offset")
	}
	if info.Version >= 4 { // older versions have no summary
		skipSummary(d)
		if info.Kind&instrprof.KindCS != 0 {
			skipSummary(d)
		}
	}
	if d.Err() != nil {
		return info, d.Err()
	}
	if err := readTable(d, tableOff, info.Version, fn, &info); err != nil {
		return info, err
	}
	if err := readMemProf(d, memOff, &info); err != nil {
		return info, err
	}
	if err := readBinaryIDs(d, idsOff, &info); err != nil {
		return info, err
	}
	if err := readVTableNames(d, vtabOff, &info); err != nil {
		return info, err
	}
	return info, readTraces(d, tracesOff, &info)
}

// readMemProf reads the MemProf section at off, when the profile is of
// the MemProf kind.
func readMemProf(d *instrprof.Decoder, off uint64, info *Info) error {
	if off == 0 || info.Kind&instrprof.KindMemProf == 0 {
		return nil
	}
	s, err := memprof.ReadSection(d.Buf, off)
	if err != nil {
		return fmt.Errorf("%s: %w", d.File, err)
	}
	info.MemProf = s
	return nil
}

// readVTableNames reads the vtable names section (a size, then a names
// chunk of that many bytes), which must lie in the file, as
// llvm-profdata's reader requires.
func readVTableNames(d *instrprof.Decoder, off uint64, info *Info) error {
	if off == 0 {
		return nil
	}
	if off+8 > uint64(len(d.Buf)) {
		d.FailAt(int64(off), "truncated: the vtable names section is missing")
		return d.Err()
	}
	vd := &instrprof.Decoder{File: d.File, Buf: d.Buf, Off: int(off)}
	n := vd.U64("vtable names size")
	if n > uint64(vd.Remaining()) {
		vd.FailAt(int64(off), "truncated: vtable names of %d bytes run past the file", n)
	}
	if vd.Err() != nil || n == 0 {
		return vd.Err()
	}
	nd := &instrprof.Decoder{File: d.File, Base: int64(vd.Off), Buf: d.Buf[vd.Off : vd.Off+int(n)]}
	return instrprof.DecodeNames(nd, func(name string) { info.VTableNames = append(info.VTableNames, name) })
}

// readTraces reads the temporal profile traces section at off (none at 0).
func readTraces(d *instrprof.Decoder, off uint64, info *Info) error {
	if off == 0 {
		return nil
	}
	if off+16 > uint64(len(d.Buf)) {
		d.FailAt(int64(off), "temporal traces offset is outside the file")
		return d.Err()
	}
	td := &instrprof.Decoder{File: d.File, Buf: d.Buf, Off: int(off)}
	n := td.U64("number of traces")
	info.TraceStream = td.U64("trace stream size")
	for i := uint64(0); i < n && td.Err() == nil; i++ {
		t := instrprof.Trace{Weight: td.U64("trace weight")}
		refs := td.U64("trace length")
		if refs > uint64(td.Remaining())/8 {
			td.Failf("trace of %d functions runs past the file", refs)
			break
		}
		for range refs {
			t.Refs = append(t.Refs, td.U64("trace function"))
		}
		info.Traces = append(info.Traces, t)
	}
	return td.Err()
}

func skipSummary(d *instrprof.Decoder) {
	fields := d.U64("summary")
	entries := d.U64("summary")
	if fields > 64 || entries > 1024 {
		d.Failf("corrupt summary (%d fields, %d entries)", fields, entries)
		return
	}
	d.Skip(int(8*(fields+3*entries)), "summary")
}

func readTable(d *instrprof.Decoder, tableOff uint64, version int, fn Func, info *Info) error {
	if tableOff < uint64(d.Off) || !fits(tableOff, 16, len(d.Buf)) {
		d.FailAt(32, "hash table offset %#x is outside the file of %d bytes", tableOff, len(d.Buf))
		return d.Err()
	}
	td := &instrprof.Decoder{File: d.File, Buf: d.Buf, Off: int(tableOff)}
	td.U64("buckets")
	entries := td.U64("entries")
	payload := &instrprof.Decoder{File: d.File, Buf: d.Buf[:tableOff], Off: d.Off}
	var rec instrprof.Record
	left := 0
	for n := uint64(0); n < entries && payload.Err() == nil; n++ {
		for left == 0 && payload.Err() == nil {
			left = int(payload.U16("bucket size"))
		}
		left--
		at := payload.Pos()
		payload.U64("key hash")
		klen := payload.U64("key length")
		dlen := payload.U64("data length")
		if payload.Err() == nil && klen+dlen > uint64(payload.Remaining()) {
			payload.FailAt(at, "entry of %d+%d bytes runs past the table", klen, dlen)
		}
		name := string(payload.Bytes(int(klen), "key"))
		data := payload.Bytes(int(dlen), "data")
		if payload.Err() != nil {
			break
		}
		dd := &instrprof.Decoder{File: d.File, Base: payload.Pos() - int64(dlen), Buf: data}
		if err := readEntry(dd, name, version, &rec, at, fn, info); err != nil {
			return err
		}
	}
	return payload.Err()
}

// readEntry reads the records of one key. Version 1 holds one record
// whose counters fill the entry; version 2 adds the counter count, so
// records can share a key; value profiles come with version 3, MC/DC
// bitmaps with 11.
func readEntry(d *instrprof.Decoder, name string, version int, rec *instrprof.Record, at int64, fn Func, info *Info) error {
	if version == 1 && d.Remaining()%8 != 0 {
		d.Failf("entry of %d bytes is not a whole number of counters", d.Remaining())
	}
	for d.Remaining() > 0 && d.Err() == nil {
		*rec = instrprof.Record{Name: name}
		rec.Hash = d.U64("function hash")
		n := uint64(d.Remaining() / 8)
		if version >= 2 {
			n = d.U64("counter count")
		}
		if d.Err() == nil && n > uint64(d.Remaining()/8) {
			d.Failf("%d counters do not fit the entry", n)
			break
		}
		rec.Counts = make([]uint64, n)
		for i := range rec.Counts {
			rec.Counts[i] = d.U64("counter")
		}
		if version >= 11 {
			nb := d.U64("bitmap byte count")
			if d.Err() == nil && nb > uint64(d.Remaining()/8) {
				d.Failf("%d bitmap bytes do not fit the entry", nb)
				break
			}
			for i := uint64(0); i < nb; i++ {
				rec.Bitmap = append(rec.Bitmap, byte(d.U64("bitmap byte")))
			}
		}
		if version >= 3 {
			instrprof.DecodeValueData(d, rec, instrprof.NumValueKinds-1, nil, nil)
		}
		if d.Err() != nil {
			break
		}
		if err := fn(rec, at); err != nil {
			return err
		}
		info.Records++
	}
	return d.Err()
}

func readBinaryIDs(d *instrprof.Decoder, off uint64, info *Info) error {
	if off == 0 {
		return nil
	}
	if !fits(off, 8, len(d.Buf)) {
		d.FailAt(48, "binary ids offset %#x is outside the file of %d bytes", off, len(d.Buf))
		return d.Err()
	}
	bd := &instrprof.Decoder{File: d.File, Buf: d.Buf, Off: int(off)}
	size := bd.U64("binary ids size")
	if size > uint64(bd.Remaining()) {
		bd.Failf("binary ids section of %d bytes runs past the file", size)
		return bd.Err()
	}
	bd.Buf = bd.Buf[:bd.Off+int(size)]
	for bd.Remaining() > 0 && bd.Err() == nil {
		n := bd.U64("binary id length")
		id := bd.Bytes(int(min(n, uint64(bd.Remaining()+1))), "binary id")
		bd.Skip(int((8-n%8)%8), "binary id padding")
		if bd.Err() == nil {
			info.BinaryIDs = append(info.BinaryIDs, append([]byte(nil), id...))
		}
	}
	return bd.Err()
}

// fits reports whether n bytes from off lie within a buffer of size bytes,
// without the overflow of off+n near 2^64.
func fits(off, n uint64, size int) bool {
	return off <= uint64(size) && n <= uint64(size)-off
}
