package perfdatafile

import "fmt"

// Sample is a PERF_RECORD_SAMPLE's fields that profgen reads. Slices point
// into the record's bytes or into reused storage: valid until the next
// Parse.
type Sample struct {
	Attr     *Attr
	CPUMode  uint16 // header.misc & MiscCPUModeMask
	IP       uint64
	PID, TID int32
	Time     uint64
	HasTime  bool
	Period   uint64
	CPU      uint32
	// Callchain holds the raw call chain: addresses and PERF_CONTEXT_*
	// markers, leaf first.
	Callchain []uint64
	HasChain  bool
	Branches  []BranchEntry // newest first
	HasBranch bool
	HWIndex   uint64
}

// BranchEntry is one perf_branch_entry.
type BranchEntry struct {
	From, To, Flags uint64
}

// BranchMispred is the mispred bit of BranchEntry.Flags (bit 0 of
// perf_branch_entry's flag word; bit 1 is predicted).
const BranchMispred = 1 << 0

// SampleIDFields is what sample_id_all appends to records other than samples.
type SampleIDFields struct {
	Attr     *Attr
	PID, TID int32
	Time     uint64
	HasTime  bool
}

// AttrOf returns the attr of a sample or of another record (through its
// sample id), or nil when the record names no known event.
func (r *Reader) AttrOf(rec *Record) *Attr {
	if len(r.Attrs) == 1 {
		return r.Attrs[0]
	}
	body := rec.Body()
	if rec.Type == RecordSample {
		if p := r.layout.idPos; p >= 0 && len(body) >= 8*(p+1) {
			return r.byID[le.Uint64(body[8*p:])]
		}
		return nil
	}
	if p := r.layout.isPos; p >= 0 && len(body) >= 8*p {
		return r.byID[le.Uint64(body[len(body)-8*p:])]
	}
	return nil
}

// decoder reads u64 fields from a record body with a sticky error.
type decoder struct {
	b   []byte
	pos int
	err string
}

func (d *decoder) u64() uint64 {
	if d.err != "" {
		return 0
	}
	if len(d.b)-d.pos < 8 {
		d.err = fmt.Sprintf("cut short at byte %d of %d", d.pos, len(d.b))
		return 0
	}
	v := le.Uint64(d.b[d.pos:])
	d.pos += 8
	return v
}

// u32pair reads a u64 as two u32 (pid/tid, cpu/res).
func (d *decoder) u32pair() (uint32, uint32) {
	v := d.u64()
	return uint32(v), uint32(v >> 32)
}

// count reads a u64 count of n-byte items and checks they fit.
func (d *decoder) count(what string, itemSize int) int {
	n := d.u64()
	if d.err == "" && n > uint64(len(d.b)-d.pos)/uint64(itemSize) {
		d.err = fmt.Sprintf("%s of %d entries does not fit in the record (%d bytes left)", what, n, len(d.b)-d.pos)
		return 0
	}
	return int(n)
}

func (d *decoder) skip(n int) {
	if d.err == "" && (n < 0 || n > len(d.b)-d.pos) {
		d.err = fmt.Sprintf("field of %d bytes does not fit at byte %d of %d", n, d.pos, len(d.b))
		return
	}
	d.pos += n
}

// ParseSample decodes the sample record rec into s, by its attr's
// sample_type (fields in the kernel's order, up to BRANCH_STACK).
func (r *Reader) ParseSample(rec *Record, s *Sample) error {
	a := r.AttrOf(rec)
	if a == nil {
		return r.recordError(rec, "sample of no known event")
	}
	chain, br := s.Callchain[:0], s.Branches[:0]
	*s = Sample{Attr: a, CPUMode: rec.Misc & MiscCPUModeMask, Period: a.SamplePeriod, Callchain: chain, Branches: br}
	d := decoder{b: rec.Body()}
	st := a.SampleType
	if st&SampleIdentifier != 0 {
		d.u64()
	}
	if st&SampleIP != 0 {
		s.IP = d.u64()
	}
	if st&SampleTID != 0 {
		pid, tid := d.u32pair()
		s.PID, s.TID = int32(pid), int32(tid)
	}
	if st&SampleTime != 0 {
		s.Time, s.HasTime = d.u64(), true
	}
	for _, bit := range []uint64{SampleAddr, SampleID, SampleStreamID} {
		if st&bit != 0 {
			d.u64()
		}
	}
	if st&SampleCPU != 0 {
		s.CPU, _ = d.u32pair()
	}
	if st&SamplePeriod != 0 {
		s.Period = d.u64()
	}
	if st&SampleRead != 0 {
		skipRead(&d, a.ReadFormat)
	}
	if st&SampleCallchain != 0 {
		n := d.count("call chain", 8)
		for i := 0; i < n; i++ {
			s.Callchain = append(s.Callchain, d.u64())
		}
		s.HasChain = true
	}
	if st&SampleRaw != 0 {
		d.skipRaw()
	}
	if st&SampleBranchStack != 0 {
		r.parseBranches(&d, a, s)
	}
	if d.err != "" {
		return r.recordError(rec, "sample: "+d.err)
	}
	return nil
}

// SampleTime decodes only the TIME of the sample record rec, for ordering
// records: ok is false when its attr has no SAMPLE_TIME. The fields after
// TIME are left unchecked, for ParseSample.
func (r *Reader) SampleTime(rec *Record) (t uint64, ok bool, err error) {
	a := r.AttrOf(rec)
	if a == nil {
		return 0, false, r.recordError(rec, "sample of no known event")
	}
	st := a.SampleType
	if st&SampleTime == 0 {
		return 0, false, nil
	}
	d := decoder{b: rec.Body()}
	for _, bit := range []uint64{SampleIdentifier, SampleIP, SampleTID} {
		if st&bit != 0 {
			d.u64()
		}
	}
	t = d.u64()
	if d.err != "" {
		return 0, false, r.recordError(rec, "sample: "+d.err)
	}
	return t, true, nil
}

func (r *Reader) parseBranches(d *decoder, a *Attr, s *Sample) {
	n := d.u64()
	if a.BranchSampleType&BranchHWIndex != 0 {
		s.HWIndex = d.u64()
	}
	if d.err == "" && n > uint64(len(d.b)-d.pos)/24 {
		d.err = fmt.Sprintf("branch stack of %d entries does not fit in the record (%d bytes left)", n, len(d.b)-d.pos)
		return
	}
	for i := uint64(0); i < n; i++ {
		s.Branches = append(s.Branches, BranchEntry{d.u64(), d.u64(), d.u64()})
	}
	s.HasBranch = true
}

// skipRaw passes over SAMPLE_RAW: a u32 size, the data, padded to 8.
func (d *decoder) skipRaw() {
	if d.err == "" && len(d.b)-d.pos < 4 {
		d.err = fmt.Sprintf("raw data size cut short at byte %d of %d", d.pos, len(d.b))
		return
	}
	if d.err == "" {
		d.skip(int((uint64(le.Uint32(d.b[d.pos:])) + 4 + 7) &^ 7))
	}
}

// skipRead passes over the read_format values of SAMPLE_READ.
func skipRead(d *decoder, rf uint64) {
	per := 1 // value
	if rf&readID != 0 {
		per++
	}
	if rf&readLost != 0 {
		per++
	}
	times := 0
	if rf&readTotalTimeEnabled != 0 {
		times++
	}
	if rf&readTotalTimeRunning != 0 {
		times++
	}
	if rf&readGroup == 0 {
		d.skip(8 * (per + times))
		return
	}
	n := d.count("read group", 8*per)
	d.skip(8 * times)
	d.skip(8 * per * n)
}

// ParseSampleID decodes the sample id at the end of a record other than a
// sample (zero when the event has no sample_id_all).
func (r *Reader) ParseSampleID(rec *Record) (SampleIDFields, error) {
	a := r.AttrOf(rec)
	if a == nil {
		if len(r.Attrs) == 0 {
			return SampleIDFields{}, nil
		}
		a = r.Attrs[0]
	}
	id := SampleIDFields{Attr: a}
	if !a.SampleIDAll() {
		return id, nil
	}
	st := a.SampleType
	n := 0
	for _, bit := range []uint64{SampleTID, SampleTime, SampleID, SampleStreamID, SampleCPU, SampleIdentifier} {
		if st&bit != 0 {
			n++
		}
	}
	body := rec.Body()
	if len(body) < 8*n {
		return id, r.recordError(rec, fmt.Sprintf("sample id of %d bytes does not fit in the record (%d bytes)", 8*n, len(body)))
	}
	d := decoder{b: body[len(body)-8*n:]}
	if st&SampleTID != 0 {
		pid, tid := d.u32pair()
		id.PID, id.TID = int32(pid), int32(tid)
	}
	if st&SampleTime != 0 {
		id.Time, id.HasTime = d.u64(), true
	}
	return id, nil
}

// recordError is an error at the record's position.
func (r *Reader) recordError(rec *Record, msg string) error {
	return &FormatError{File: r.name, Offset: rec.Offset, InCompressed: rec.InCompressed, Inner: rec.Inner,
		Msg: fmt.Sprintf("record type %d: %s", rec.Type, msg)}
}
