package main

import (
	"encoding/binary"
	"io"
	"strings"

	"github.com/profgen/profgen/internal/perfdatafile"
)

// perf.data (PERFILE2) as perf record writes it: a header, one event
// attribute, the data section (records in time order) and feature
// sections. Layouts: tools/perf/Documentation/perf.data-file-format.txt and
// include/uapi/linux/perf_event.h.

// The record types, sample_type bits, misc bits and feature bits are
// internal/perfdatafile's, the reader's own definitions of the format.

const (
	fileHeaderSize = 104
	attrSize       = 128                  // PERF_ATTR_SIZE_VER7, perf 6.1's sizeof(struct perf_event_attr)
	attrEntrySize  = attrSize + 16        // attr + perf_file_section of its ids
	dataOffset     = fileHeaderSize + 256 // header, attrs and ids, rounded up
	branchAnyUser  = 1<<0 | 1<<3          // PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY
	eventName      = "cycles:u"
	perfVersion    = "6.1.0"
	maxStack       = 127 // perf_event_max_stack: entries of a user call chain
	nameAlign      = 64  // NAME_ALIGN of perf's header strings
)

// sampleID is what sample_id_all appends to every record and what a sample
// starts with: who (pid = tid), when, on which CPU.
type sampleID struct {
	pid  int
	cpu  int
	time uint64
}

// perfData accumulates the data section of a perf.data file; writeTo
// writes the file.
type perfData struct {
	hybrid  bool // samples carry a call chain (perf record -b -g)
	stack   bool // samples carry a call chain and no branch stack (perf record -g)
	arch    string
	lay     flagLayout
	period  uint64
	buildID []byte
	binPath string
	// dsoBuildIDs, when not nil, lists the shared objects' build ids for
	// the build-id table too (-dso-buildids), asked for when it is written.
	dsoBuildIDs func() []dsoBuildID
	data        []byte
	first       uint64
	last        uint64
	nsamples    uint64
	haveSample  bool
}

func newPerfData(hybrid bool, lay flagLayout, period uint64, buildID []byte, binPath string) *perfData {
	return &perfData{hybrid: hybrid, lay: lay, period: period, buildID: buildID, binPath: binPath, arch: "x86_64"}
}

func (d *perfData) sampleType() uint64 {
	t := uint64(perfdatafile.SampleIP | perfdatafile.SampleTID | perfdatafile.SampleTime | perfdatafile.SampleCPU | perfdatafile.SamplePeriod | perfdatafile.SampleBranchStack)
	if d.hybrid || d.stack {
		t |= perfdatafile.SampleCallchain
	}
	if d.stack {
		t &^= perfdatafile.SampleBranchStack
	}
	return t
}

// add appends the record of ev, stamped with id.
func (d *perfData) add(id sampleID, ev *event) {
	start := len(d.data)
	d.data = append(d.data, make([]byte, 8)...) // perf_event_header, filled below
	typ, misc := d.body(id, ev)
	if typ != perfdatafile.RecordSample {
		d.data = appendSampleID(d.data, id)
	}
	d.data = pad8(d.data)
	le.PutUint32(d.data[start:], typ)
	le.PutUint16(d.data[start+4:], misc)
	le.PutUint16(d.data[start+6:], uint16(len(d.data)-start))
}

// body appends the record's fields after the header and says its type and
// misc.
func (d *perfData) body(id sampleID, ev *event) (uint32, uint16) {
	b := d.data
	switch ev.kind {
	case evKernelMMap:
		b = appendU32(appendU32(b, ^uint32(0)), 0)
		b = appendU64(appendU64(appendU64(b, ev.m.Addr), ev.m.Len), ev.m.Pgoff)
		d.data = pad8(append(append(b, ev.m.Path...), 0))
		return perfdatafile.RecordMmap, perfdatafile.MiscKernel
	case evMMap2:
		d.data = appendMMap2Body(b, ev.pid, ev.m)
		return perfdatafile.RecordMmap2, perfdatafile.MiscUser
	case evComm:
		b = appendU32(appendU32(b, uint32(ev.pid)), uint32(ev.pid))
		d.data = pad8(append(append(b, taskComm(ev.comm)...), 0))
		return perfdatafile.RecordComm, perfdatafile.MiscCommExec
	case evFork, evExit:
		child, parent := ev.other, ev.pid // FORK: the column is the parent's
		typ := uint32(perfdatafile.RecordFork)
		if ev.kind == evExit {
			child, parent, typ = ev.pid, ev.other, perfdatafile.RecordExit
		}
		b = appendU32(appendU32(b, uint32(child)), uint32(parent))
		b = appendU32(appendU32(b, uint32(child)), uint32(parent))
		d.data = appendU64(b, id.time)
		return typ, 0
	}
	d.data = d.appendSample(b, id, ev)
	return perfdatafile.RecordSample, perfdatafile.MiscUser
}

func appendMMap2Body(b []byte, pid int, m mapping) []byte {
	b = appendU32(appendU32(b, uint32(pid)), uint32(pid))
	b = appendU64(appendU64(appendU64(b, m.Addr), m.Len), m.Pgoff)
	b = appendU32(appendU32(b, m.Maj), m.Min)
	b = appendU64(appendU64(b, m.Ino), m.Gen)
	prot, flags := protFlags(m.Prot)
	b = appendU32(appendU32(b, prot), flags)
	return pad8(append(append(b, m.Path...), 0))
}

// protFlags turns "r-xp" into PROT_* and MAP_SHARED / MAP_PRIVATE.
func protFlags(s string) (prot, flags uint32) {
	for i, bit := range []uint32{1, 2, 4} { // PROT_READ, PROT_WRITE, PROT_EXEC
		if i < len(s) && s[i] == "rwx"[i] {
			prot |= bit
		}
	}
	flags = 2 // MAP_PRIVATE
	if strings.HasSuffix(s, "s") {
		flags = 1 // MAP_SHARED
	}
	return prot, flags
}

// appendSample appends a PERF_RECORD_SAMPLE's fields in sample_type order:
// IP, TID, TIME, CPU, PERIOD, CALLCHAIN, BRANCH_STACK.
func (d *perfData) appendSample(b []byte, id sampleID, ev *event) []byte {
	s, reloc := ev.s, ev.reloc
	b = appendU64(b, reloc(s.IP))
	b = appendU32(appendU32(b, uint32(id.pid)), uint32(id.pid))
	b = appendU64(b, id.time)
	b = appendU32(appendU32(b, uint32(id.cpu)), 0)
	b = appendU64(b, d.period)
	if d.hybrid || d.stack {
		chain := callchain(s)
		b = appendU64(appendU64(b, uint64(len(chain)+1)), perfdatafile.ContextUser)
		for _, a := range chain {
			b = appendU64(b, reloc(a))
		}
	}
	if !d.stack {
		b = appendU64(b, uint64(len(s.Entries)))
		for i := range s.Entries {
			e := &s.Entries[i]
			b = appendU64(appendU64(appendU64(b, reloc(e.From)), reloc(e.To)), branchFlags(e, d.lay))
		}
	}
	if !d.haveSample {
		d.first, d.haveSample = id.time, true
	}
	d.last = id.time
	d.nsamples++
	return b
}

// branchFlags packs perf_branch_entry's bit fields (mispred:1, predicted:1,
// in_tx:1, abort:1, cycles:16, type:4, spec:2, ...) so that perf script
// prints the entry as lbrgen's layout does.
func branchFlags(e *Entry, lay flagLayout) uint64 {
	switch lay {
	case layoutTyped:
		f := uint64(2) // predicted
		if e.Mispred {
			f = 1
		}
		return f | uint64(e.Cycles)<<4 | uint64(perfBranchType(e.Kind))<<20
	case layoutSpec:
		return 2 | 2<<24 // predicted, PERF_BR_NON_SPEC_CORRECT_PATH
	}
	return 2
}

// perfBranchType is the PERF_BR_* number of a kind.
func perfBranchType(k BranchKind) uint64 {
	return [...]uint64{
		KindUnknown: 0, KindCond: 1, KindUncond: 2, KindInd: 3,
		KindCall: 4, KindIndCall: 5, KindRet: 6, KindSyscall: 7,
	}[k]
}

func appendSampleID(b []byte, id sampleID) []byte {
	b = appendU32(appendU32(b, uint32(id.pid)), uint32(id.pid))
	b = appendU64(b, id.time)
	return appendU32(appendU32(b, uint32(id.cpu)), 0)
}

// writeTo writes the whole file: header, attr, its id, data, features.
func (d *perfData) writeTo(w io.Writer) error {
	feats := d.features()
	b := make([]byte, 0, dataOffset)
	b = append(b, "PERFILE2"...)
	b = appendU64(appendU64(b, fileHeaderSize), attrEntrySize)
	b = appendU64(appendU64(b, fileHeaderSize), attrEntrySize)   // attrs
	b = appendU64(appendU64(b, dataOffset), uint64(len(d.data))) // data
	b = appendU64(appendU64(b, 0), 0)                            // event_types
	var bits [4]uint64
	for _, f := range feats {
		bits[f.bit/64] |= 1 << (f.bit % 64)
	}
	for _, v := range bits {
		b = appendU64(b, v)
	}
	b = d.appendAttr(b)
	idsAt := uint64(len(b)) + 16
	b = appendU64(appendU64(b, idsAt), 8)
	b = appendU64(b, 1) // the event's id
	b = append(b, make([]byte, dataOffset-len(b))...)
	if _, err := w.Write(b); err != nil {
		return err
	}
	if _, err := w.Write(d.data); err != nil {
		return err
	}
	_, err := w.Write(appendFeatures(nil, dataOffset+uint64(len(d.data)), feats))
	return err
}

// appendAttr appends the perf_event_attr: a user-space cycles event with
// branch stacks, as perf record -b (-g) sets it up.
func (d *perfData) appendAttr(b []byte) []byte {
	start := len(b)
	b = appendU32(appendU32(b, 0), attrSize) // PERF_TYPE_HARDWARE, size
	b = appendU64(b, 0)                      // PERF_COUNT_HW_CPU_CYCLES
	b = appendU64(b, d.period)
	b = appendU64(b, d.sampleType())
	b = appendU64(b, 0) // read_format
	// disabled, inherit, exclude_kernel, exclude_hv, mmap, comm,
	// enable_on_exec, task, sample_id_all, mmap2, comm_exec.
	flags := uint64(1<<0 | 1<<1 | 1<<5 | 1<<6 | 1<<8 | 1<<9 | 1<<12 | 1<<13 | 1<<18 | 1<<23 | 1<<24)
	b = appendU64(b, flags)
	b = appendU32(appendU32(b, 0), 0) // wakeup_events, bp_type
	b = appendU64(appendU64(b, 0), 0) // config1, config2
	if d.stack {
		b = appendU64(b, 0) // no branch stack
	} else {
		b = appendU64(b, branchAnyUser) // branch_sample_type
	}
	b = append(b, make([]byte, attrSize-(len(b)-start))...)
	if d.hybrid || d.stack {
		le.PutUint16(b[start+108:], maxStack) // sample_max_stack
	}
	return b
}

// feature is one feature section: its bit and contents.
type feature struct {
	bit  uint
	data []byte
}

func (d *perfData) features() []feature {
	var nr [8]byte
	le.PutUint32(nr[:], 2)
	le.PutUint32(nr[4:], 2)
	var times []byte
	times = appendU64(appendU64(times, d.first), d.last)
	feats := []feature{
		{perfdatafile.FeatBuildID, d.buildIDRecords()},
		{perfdatafile.FeatOSRelease, headerString(nil, perfVersion)},
		{perfdatafile.FeatVersion, headerString(nil, perfVersion)},
		{perfdatafile.FeatArch, headerString(nil, d.arch)},
		{perfdatafile.FeatNrCPUs, nr[:]},
		{perfdatafile.FeatEventDesc, d.eventDesc()},
		{perfdatafile.FeatBranchStack, nil},
		{perfdatafile.FeatSampleTime, times},
	}
	if d.stack { // no branch stacks
		feats = append(feats[:6], feats[7:]...)
	}
	return feats
}

// appendFeatures appends the table of perf_file_sections, then the
// sections, the first at offset at+16*len(feats).
func appendFeatures(b []byte, at uint64, feats []feature) []byte {
	off := at + 16*uint64(len(feats))
	for _, f := range feats {
		b = appendU64(appendU64(b, off), uint64(len(f.data)))
		off += uint64(len(f.data))
	}
	for _, f := range feats {
		b = append(b, f.data...)
	}
	return b
}

// dsoBuildID is a shared object's build id.
type dsoBuildID struct {
	path string
	id   []byte
}

// buildIDRecords is the HEADER_BUILD_ID section: one build_id_event for
// the binary (none when it has no build id), then with -dso-buildids one
// for each shared object mapped that has one.
func (d *perfData) buildIDRecords() []byte {
	b := buildIDRecord(nil, d.binPath, d.buildID)
	if d.dsoBuildIDs != nil {
		for _, o := range d.dsoBuildIDs() {
			b = buildIDRecord(b, o.path, o.id)
		}
	}
	return b
}

// buildIDRecord appends the build_id_event of path to b.
func buildIDRecord(b []byte, path string, buildID []byte) []byte {
	if len(buildID) == 0 || len(buildID) > 20 {
		return b
	}
	name := len(path) + 1
	name = (name + nameAlign - 1) / nameAlign * nameAlign
	size := 8 + 4 + 24 + name
	start := len(b)
	b = appendU32(b, perfdatafile.RecordMmap) // header.type is unused here
	b = appendU16(appendU16(b, perfdatafile.MiscUser|1<<15), uint16(size))
	b = appendU32(b, ^uint32(0)) // pid: the host machine
	var id [24]byte
	copy(id[:], buildID)
	id[20] = byte(len(buildID)) // size, flagged by PERF_RECORD_MISC_BUILD_ID_SIZE
	b = append(b, id[:]...)
	b = append(b, path...)
	return append(b, make([]byte, size-(len(b)-start))...)
}

// eventDesc is the HEADER_EVENT_DESC section: the attr, its name and id.
func (d *perfData) eventDesc() []byte {
	b := appendU32(appendU32(nil, 1), attrSize)
	b = d.appendAttr(b)
	b = appendU32(b, 1)
	b = headerString(b, eventName)
	return appendU64(b, 1)
}

// headerString appends a perf_header_string: a length rounded up to 64,
// then the string and zeros.
func headerString(b []byte, s string) []byte {
	n := (len(s) + 1 + nameAlign - 1) / nameAlign * nameAlign
	b = appendU32(b, uint32(n))
	b = append(b, s...)
	return append(b, make([]byte, n-len(s))...)
}

var le = binary.LittleEndian

func appendU16(b []byte, v uint16) []byte { return le.AppendUint16(b, v) }
func appendU32(b []byte, v uint32) []byte { return le.AppendUint32(b, v) }
func appendU64(b []byte, v uint64) []byte { return le.AppendUint64(b, v) }

func pad8(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}
