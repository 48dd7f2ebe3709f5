package perfdatafile

import "fmt"

// Attr is one event's perf_event_attr, as far as reading records needs it,
// with the event's name and the sample ids that point to it.
type Attr struct {
	Type             uint32
	Config           uint64
	SamplePeriod     uint64 // sample_period, or sample_freq when Freq
	SampleType       uint64
	ReadFormat       uint64
	Flags            uint64
	BranchSampleType uint64
	Name             string // from the EVENT_DESC feature or an EVENT_UPDATE record; else derived from Type and Config
	IDs              []uint64
}

const (
	flagFreq        = 1 << 10
	flagSampleIDAll = 1 << 18
	flagBuildID     = 1 << 34
)

// Freq reports whether SamplePeriod is a frequency.
func (a *Attr) Freq() bool { return a.Flags&flagFreq != 0 }

// SampleIDAll reports whether records other than samples end with the
// sample id fields (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER).
func (a *Attr) SampleIDAll() bool { return a.Flags&flagSampleIDAll != 0 }

// BuildIDMmap reports whether the MMAP2 records carry the build id of
// what they map (perf record --buildid-mmap) instead of device and inode.
func (a *Attr) BuildIDMmap() bool { return a.Flags&flagBuildID != 0 }

// parseAttr reads a perf_event_attr of size bytes from b (which may be
// longer). Fields past the attr's own size are zero, as the kernel reads
// an older attr.
func parseAttr(b []byte) (*Attr, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("event attribute cut short (%d bytes)", len(b))
	}
	size := int(le.Uint32(b[4:]))
	if size < attrSizeVer0 || size > len(b) {
		return nil, fmt.Errorf("event attribute size %d outside %d..%d", size, attrSizeVer0, len(b))
	}
	b = b[:size]
	a := &Attr{
		Type:         le.Uint32(b),
		Config:       le.Uint64(b[8:]),
		SamplePeriod: le.Uint64(b[16:]),
		SampleType:   le.Uint64(b[24:]),
		ReadFormat:   le.Uint64(b[32:]),
		Flags:        le.Uint64(b[40:]),
	}
	if size >= 80 {
		a.BranchSampleType = le.Uint64(b[72:])
	}
	return a, nil
}

// defaultName names an event that no feature or record named, as perf
// does for the common hardware and software events.
func (a *Attr) defaultName() string {
	hw := []string{"cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"}
	sw := []string{"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
		"major-faults", "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches"}
	switch {
	case a.Type == 0 && a.Config < uint64(len(hw)):
		return hw[a.Config]
	case a.Type == 1 && a.Config < uint64(len(sw)):
		return sw[a.Config]
	}
	return fmt.Sprintf("unknown-%d-%#x", a.Type, a.Config)
}

// sampleLayout is where the id that names a record's attr sits, the same
// for every attr of a file (perf refuses files where it is not).
type sampleLayout struct {
	idPos int // u64 index of the id in a sample's body, or -1
	isPos int // u64 index from the end of another record's sample id, or -1
}

func layoutOf(a *Attr) sampleLayout {
	l := sampleLayout{idPos: -1, isPos: -1}
	st := a.SampleType
	switch {
	case st&SampleIdentifier != 0:
		l.idPos, l.isPos = 0, 1
	case st&SampleID != 0:
		l.idPos = 0
		for _, bit := range []uint64{SampleIP, SampleTID, SampleTime, SampleAddr} {
			if st&bit != 0 {
				l.idPos++
			}
		}
		l.isPos = 1
		for _, bit := range []uint64{SampleCPU, SampleStreamID} {
			if st&bit != 0 {
				l.isPos++
			}
		}
	}
	return l
}
