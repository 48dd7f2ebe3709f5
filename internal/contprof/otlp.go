package contprof

import (
	"encoding/binary"
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// OTLP attribute keys read.
const (
	attrFrameType  = "profile.frame.type"
	attrBuildIDGNU = "process.executable.build_id.gnu"
	attrBuildIDGo  = "process.executable.build_id.go"
	attrHTLHash    = "process.executable.build_id.htlhash"
)

// nativeFrameTypes are the profile.frame.type values of machine code in
// an ELF file (no type means native too).
var nativeFrameTypes = map[string]bool{"": true, "native": true, "go": true, "rust": true}

// otlpReader reads the profiles of one OTLP message.
type otlpReader struct {
	dict *otlpDict
	opts Options
	b    *builder
	// mappings maps a dictionary mapping to its index in the Profile, -1
	// before its first frame.
	mappings []int32
	// stacks holds each dictionary stack once read.
	stacks  []*stackTally
	skipErr error    // why the last profile skipped was skipped
	skipped int      // profiles skipped for their sample type
	scratch []uint64 // a sample's attribute indexes
}

// decodeOTLP reads an OTLP ProfilesData or ExportProfilesServiceRequest:
// its dictionary first, wherever it is, then its resource_profiles.
func decodeOTLP(data []byte, opts Options) (*Profile, error) {
	dict, resources, err := readTopLevel(data)
	if err != nil {
		return nil, err
	}
	if err := checkLayout(dict, resources); err != nil {
		return nil, err
	}
	if dict == nil { // no resource either: refused below for its lack of profiles
		dict = &otlpDict{}
	}
	r := newOTLPReader(dict, opts)
	return r.read(data)
}

// readTopLevel checks the message's fields, decodes its dictionary and
// counts its resource_profiles.
func readTopLevel(data []byte) (dict *otlpDict, resources int, err error) {
	err = eachField(data, 0, func(f field) error {
		switch {
		case f.num > 2:
			return f.unknown("ProfilesData")
		case f.typ != protowire.BytesType:
			return f.want(protowire.BytesType, "a top-level field")
		case f.num == 1:
			resources++
			return nil
		case dict != nil:
			return errAt(f.off, "a second dictionary")
		}
		var err error
		dict, err = decodeDict(f.data, f.dataOff())
		return err
	})
	return dict, resources, err
}

// checkLayout refuses a message without the dictionary (opentelemetry-proto
// 1.7) or its stack table (1.10) of the layout read.
func checkLayout(d *otlpDict, resources int) error {
	switch {
	case resources == 0:
		return nil
	case d == nil:
		return errAt(-1, "no dictionary (ProfilesData field 2): an OTLP profiles layout before opentelemetry-proto 1.7; profgen reads 1.10–1.11")
	case !d.present[dictStacks] && d.present[dictLocations]:
		return errAt(-1, "the dictionary has no stack_table (field 7): an OTLP profiles layout before opentelemetry-proto 1.10; profgen reads 1.10–1.11")
	}
	return nil
}

func newOTLPReader(d *otlpDict, opts Options) *otlpReader {
	r := &otlpReader{dict: d, opts: opts, mappings: make([]int32, len(d.mappings)), stacks: make([]*stackTally, len(d.stacks))}
	for i := range r.mappings {
		r.mappings[i] = -1
	}
	return r
}

// read reads every profile of the message's ResourceProfiles (field 1).
func (r *otlpReader) read(data []byte) (*Profile, error) {
	err := eachField(data, 0, func(f field) error {
		if f.num != 1 {
			return nil
		}
		return r.readResource(f)
	})
	if err != nil {
		return nil, err
	}
	switch {
	case r.b != nil:
		if err := nothingKept(&r.b.p.Stats, r.b.mapped); err != nil {
			return nil, &Error{Offset: -1, Err: err}
		}
		r.b.p.Stats.OtherTypes = r.skipped
		return &r.b.p, nil
	case r.skipErr != nil:
		return nil, &Error{Offset: -1, Err: r.skipErr}
	}
	return nil, &Error{Offset: -1, Err: errors.New("an OTLP message with no profile")}
}

// readResource reads a ResourceProfiles: its scope_profiles (field 2),
// each with its profiles (field 2).
func (r *otlpReader) readResource(rp field) error {
	return eachField(rp.data, rp.dataOff(), func(sp field) error {
		if sp.num != 2 {
			return nil // resource, schema_url
		}
		if err := sp.want(protowire.BytesType, "scope_profiles"); err != nil {
			return err
		}
		return eachField(sp.data, sp.dataOff(), func(p field) error {
			if p.num != 2 {
				return nil // scope, schema_url
			}
			if err := p.want(protowire.BytesType, "a profile"); err != nil {
				return err
			}
			return r.readProfile(p)
		})
	})
}

// otlpProfile is what readProfile needs of a Profile message.
type otlpProfile struct {
	sampleType, periodType valueType
	period                 int64
	sampleTypes            int
}

// readProfile reads one Profile, or skips it for its sample type.
func (r *otlpReader) readProfile(pf field) error {
	p, err := r.profileHeader(pf)
	if err != nil {
		return err
	}
	if p.sampleTypes > 1 {
		return errAt(pf.off, "a profile with %d sample_type fields: %s (one since 1.10)", p.sampleTypes, layoutHint)
	}
	if _, err := chooseSampleType([]valueType{p.sampleType}, r.opts.SampleType); err != nil {
		r.skipErr = err
		r.skipped++
		return nil
	}
	if r.b == nil {
		r.b = newBuilder(KindOTLP, p.sampleType.String())
	}
	w := otlpWeigher{weigher: newWeigher(p.sampleType, p.periodType, p.period), clock: p.clock()}
	r.b.p.Clock = w.clock != clockNone
	if w.clock == clockPeriods {
		w.period = uint64(p.period)
	}
	return eachField(pf.data, pf.dataOff(), func(f field) error {
		if f.num != 2 {
			return nil
		}
		return r.readSample(f, w)
	})
}

// otlpWeigher gives a sample's weight and CPU time.
type otlpWeigher struct {
	weigher
	clock  clockKind
	period uint64 // ns a sample, with clockPeriods
}

// clockKind is how a profile's samples give their CPU time.
type clockKind uint8

const (
	clockNone    clockKind = iota
	clockValues            // values are cpu/nanoseconds
	clockPeriods           // each sample is a period of cpu/nanoseconds
)

// clock is how p's samples give their CPU time.
func (p *otlpProfile) clock() clockKind {
	cpuNS := valueType{"cpu", "nanoseconds"}
	switch {
	case p.sampleType == cpuNS:
		return clockValues
	case p.periodType == cpuNS && p.period > 0 && p.sampleType.Unit == "count":
		return clockPeriods
	}
	return clockNone
}

// cpuTime is the CPU time of a sample of weight n and values.
func (w otlpWeigher) cpuTime(n uint64, values []uint64) uint64 {
	switch w.clock {
	case clockValues:
		var sum uint64
		for _, v := range values {
			sum += v
		}
		return sum
	case clockPeriods:
		return n * w.period
	}
	return 0
}

// profileHeader reads a Profile's sample type and period, and checks
// its other fields; readProfile then reads the samples in a second pass,
// holding none of them.
func (r *otlpReader) profileHeader(pf field) (*otlpProfile, error) {
	p := &otlpProfile{}
	err := eachField(pf.data, pf.dataOff(), func(f field) error {
		var err error
		switch f.num {
		case 1:
			p.sampleTypes++
			p.sampleType, err = r.valueType(f)
		case 2:
			err = f.want(protowire.BytesType, "a sample")
		case 5:
			p.periodType, err = r.valueType(f)
		case 6:
			p.period = int64(f.val)
			err = f.want(protowire.VarintType, "period")
		case 3, 4, 7, 8, 9, 10, 11:
			// time, duration, profile_id, dropped attributes, original
			// payload and its format, attributes: not needed
		default:
			err = f.unknown("a profile")
		}
		return err
	})
	return p, err
}

// valueType reads a ValueType{type_strindex, unit_strindex}.
func (r *otlpReader) valueType(f field) (valueType, error) {
	if err := f.want(protowire.BytesType, "a value type"); err != nil {
		return valueType{}, err
	}
	var v valueType
	err := eachField(f.data, f.dataOff(), func(g field) error {
		if g.num > 2 {
			return g.unknown("a value type")
		}
		if err := firstErr(g.want(protowire.VarintType, "a value type's string"),
			inTable(g.val, len(r.dict.strings), g.off, "a value type's string")); err != nil {
			return err
		}
		if g.num == 1 {
			v.Type = r.dict.str(g.val)
		} else {
			v.Unit = r.dict.str(g.val)
		}
		return nil
	})
	return v, err
}

// readSample reads a Sample{stack_index, attribute_indices, link_index,
// values, timestamps_unix_nano}.
func (r *otlpReader) readSample(sf field, w otlpWeigher) error {
	var stack uint64
	var values []uint64
	var stamps uint64
	var tr timeRange
	err := eachField(sf.data, sf.dataOff(), func(f field) error {
		var err error
		switch f.num {
		case 1:
			stack = f.val
			err = firstErr(f.want(protowire.VarintType, "a sample's stack_index"),
				inTable(f.val, len(r.dict.stacks), f.off, "a sample's stack"))
		case 2: // attribute_indices: checked, not kept
			r.scratch, err = f.varints(r.scratch[:0])
		case 3:
			err = f.want(protowire.VarintType, "a sample's link_index")
		case 4:
			values, err = f.varints(values)
		case 5:
			var n uint64
			n, err = readStamps(f, &tr)
			stamps += n
		default:
			err = f.unknown("a sample")
		}
		return err
	})
	if err != nil {
		return err
	}
	n := sampleWeight(values, stamps, w.weigher)
	r.b.addSample(r.stack(stack), n, w.cpuTime(n, values), tr)
	return nil
}

// readStamps counts a sample's timestamps and widens tr to hold them.
func readStamps(f field, tr *timeRange) (uint64, error) {
	n, err := countFixed64(f)
	if err != nil {
		return 0, err
	}
	if f.typ == protowire.Fixed64Type {
		tr.add(f.val)
		return n, nil
	}
	for b := f.data; len(b) >= 8; b = b[8:] {
		tr.add(binary.LittleEndian.Uint64(b))
	}
	return n, nil
}

// sampleWeight is the sum of a sample's values, or, with none, its
// number of timestamps (each counts 1).
func sampleWeight(values []uint64, stamps uint64, w weigher) uint64 {
	if len(values) == 0 {
		return stamps
	}
	var sum uint64
	for _, v := range values {
		sum += w.weight(int64(v))
	}
	return sum
}

// countFixed64 counts the values of a repeated fixed64 field: one, or a
// packed run of them.
func countFixed64(f field) (uint64, error) {
	if f.typ == protowire.Fixed64Type {
		return 1, nil
	}
	if err := f.want(protowire.BytesType, "a sample's timestamps"); err != nil {
		return 0, err
	}
	if len(f.data)%8 != 0 {
		return 0, errAt(f.off, "a sample's timestamps take %d bytes, not a multiple of 8", len(f.data))
	}
	return uint64(len(f.data) / 8), nil
}

// stack returns dictionary stack i, read on first use.
func (r *otlpReader) stack(i uint64) *stackTally {
	if i >= uint64(len(r.stacks)) {
		return &stackTally{sample: -1} // the zero stack of an empty table
	}
	if r.stacks[i] == nil {
		for _, li := range r.dict.stacks[i].locs {
			r.addLocation(li)
		}
		r.stacks[i] = r.b.endStack()
	}
	return r.stacks[i]
}

// addLocation adds dictionary location i to the stack being read.
func (r *otlpReader) addLocation(i uint64) {
	if i >= uint64(len(r.dict.locations)) {
		r.b.addFrame(-1, 0)
		return
	}
	l := r.dict.locations[i]
	switch typ := r.dict.attrValue(l.attrs, attrFrameType); {
	case typ == "kernel":
		r.b.addFrame(r.b.kernelMapping(), l.addr)
	case !nativeFrameTypes[typ]:
		r.b.addInterpreted(typ)
	default:
		r.b.addFrame(r.mapping(l.mapping), l.addr)
	}
}

// mapping returns the Profile's index of dictionary mapping i, -1 for
// none (index 0, the zero mapping).
func (r *otlpReader) mapping(i uint64) int32 {
	if i == 0 || i >= uint64(len(r.mappings)) {
		return -1
	}
	if r.mappings[i] < 0 {
		m := r.dict.mappings[i]
		path := r.dict.str(m.file)
		r.mappings[i] = r.b.addMapping(Mapping{
			Path:   path,
			Start:  m.start,
			Limit:  m.limit,
			Offset: m.offset,
			Kernel: isKernelPath(path),
			BuildIDs: BuildIDs{
				GNU:     normalHex(r.dict.attrValue(m.attrs, attrBuildIDGNU)),
				Go:      r.dict.attrValue(m.attrs, attrBuildIDGo),
				HTLHash: normalHex(r.dict.attrValue(m.attrs, attrHTLHash)),
			},
		})
	}
	return r.mappings[i]
}
