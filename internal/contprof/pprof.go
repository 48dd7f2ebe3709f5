package contprof

import (
	"encoding/hex"
	"errors"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/pprofread"
)

// decodePprof reads an inflated pprof protobuf.
func decodePprof(data []byte, opts Options) (*Profile, error) {
	pp, err := pprofread.Decode(data)
	if err != nil {
		return nil, err
	}
	return fromPprof(pp, opts)
}

// fromPprof keeps the native call stacks of a decoded pprof profile.
func fromPprof(pp *profile.Profile, opts Options) (*Profile, error) {
	types := make([]valueType, len(pp.SampleType))
	for i, t := range pp.SampleType {
		types[i] = valueType{t.Type, t.Unit}
	}
	vi, err := chooseSampleType(types, opts.SampleType)
	if err != nil {
		return nil, &pprofread.Error{Offset: -1, Err: err}
	}
	b := newBuilder(KindPprof, types[vi].String())
	b.userBelowKernelLessOne = true
	index := b.addPprofMappings(pp.Mapping)
	w := newWeigher(types[vi], periodType(pp), pp.Period)
	ti := timeIndex(types, vi)
	b.p.Clock = ti >= 0
	window := pprofWindow(pp)
	for _, s := range pp.Sample {
		b.addPprofStack(s, index)
		b.addSample(b.endStack(), w.weight(s.Value[vi]), cpuTime(s.Value, ti), window)
	}
	if err := nothingKept(&b.p.Stats, b.mapped); err != nil {
		return nil, &pprofread.Error{Offset: -1, Err: err}
	}
	return &b.p, nil
}

// pprofWindow is the time range of a pprof profile's samples: its time
// and duration, which its samples do not refine.
func pprofWindow(pp *profile.Profile) timeRange {
	if pp.TimeNanos <= 0 {
		return timeRange{}
	}
	return timeRange{uint64(pp.TimeNanos), uint64(pp.TimeNanos + max(pp.DurationNanos, 0))}
}

// cpuTime is values[ti], the CPU time of a sample, 0 without one.
func cpuTime(values []int64, ti int) uint64 {
	if ti < 0 || values[ti] < 0 {
		return 0
	}
	return uint64(values[ti])
}

// nothingKept refuses a profile of which no frame was kept for want of
// addresses or mappings.
func nothingKept(st *Stats, mapped bool) error {
	switch {
	case mapped:
		return nil
	case st.NoAddress > 0:
		// The old Pyroscope eBPF profiler's profiles.
		return errors.New("its locations carry no addresses (names only): no call stack of addresses to read")
	case st.NoMapping > 0:
		// Parca's server may export profiles without them.
		return errors.New("its locations are in no mapping: no file offsets to read")
	}
	return nil
}

func periodType(pp *profile.Profile) valueType {
	if pp.PeriodType == nil {
		return valueType{}
	}
	return valueType{pp.PeriodType.Type, pp.PeriodType.Unit}
}

// addPprofMappings adds the profile's mappings and returns their indexes
// by mapping.
func (b *builder) addPprofMappings(ms []*profile.Mapping) map[*profile.Mapping]int32 {
	index := make(map[*profile.Mapping]int32, len(ms))
	for _, m := range ms {
		index[m] = b.addMapping(Mapping{
			Path:         m.File,
			BuildIDs:     pprofBuildIDs(m.BuildID),
			Start:        m.Start,
			Limit:        m.Limit,
			Offset:       m.Offset,
			VirtualAddrs: isFake(m.Start, m.Limit),
			Kernel:       isKernelPath(m.File),
		})
	}
	return index
}

// pprofBuildIDs sorts a pprof mapping's build id: hex is the GNU build id
// (perf_to_profile's, and Go's runtime/pprof's, which reads the note);
// anything else is taken for Go's own build id.
func pprofBuildIDs(id string) BuildIDs {
	if id == "" {
		return BuildIDs{}
	}
	if _, err := hex.DecodeString(id); err == nil {
		return BuildIDs{GNU: normalHex(id)}
	}
	return BuildIDs{Go: id}
}

// addPprofStack reads the frames of a pprof sample, leaf first.
func (b *builder) addPprofStack(s *profile.Sample, index map[*profile.Mapping]int32) {
	for _, loc := range s.Location {
		mi := int32(-1)
		if loc.Mapping != nil {
			mi = index[loc.Mapping]
		}
		b.addFrame(mi, loc.Address)
	}
}
