package profwrite

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// pprofWriter builds a pprof profile, its mappings and locations made on
// first use.
type pprofWriter struct {
	p    *profile.Profile
	maps map[scriptMap]*profile.Mapping
	locs map[[2]uint64]*profile.Location
}

// WritePprof writes samples to path as perf_to_profile's pprof, with the
// build ids ids (by path).
func WritePprof(t testing.TB, path string, samples []Sample, ids map[string]string) {
	t.Helper()
	w := &pprofWriter{p: &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu-clock_sample", Unit: "count"}, {Type: "cpu-clock_event", Unit: "count"}},
	}, maps: map[scriptMap]*profile.Mapping{}, locs: map[[2]uint64]*profile.Location{}}
	for i := range samples {
		w.add(&samples[i])
	}
	for sm, m := range w.maps {
		m.BuildID = ids[strings.TrimSuffix(sm.path, "_text")]
	}
	if len(samples) > 0 {
		w.p.TimeNanos = int64(samples[0].timeNS)
		w.p.DurationNanos = int64(samples[len(samples)-1].timeNS - samples[0].timeNS)
	}
	var b bytes.Buffer
	if err := w.p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// add adds a sample of one count and its period.
func (w *pprofWriter) add(s *Sample) {
	ps := &profile.Sample{Value: []int64{1, int64(s.period)}}
	for i, f := range s.frames {
		ps.Location = append(ps.Location, w.location(s, f, i > 0))
	}
	w.p.Sample = append(w.p.Sample, ps)
}

// location is the location of frame f at its runtime address (− 1 for a
// caller), in its mapping.
func (w *pprofWriter) location(s *Sample, f scriptFrame, caller bool) *profile.Location {
	sm := s.mapOf(f)
	addr, mid := f.addr, uint64(0)
	var m *profile.Mapping
	if sm != nil {
		m = w.mapping(sm)
		mid = m.ID
		if !isKernelDSO(f.dso) {
			addr = f.addr - sm.pgoff + sm.start
		}
	}
	if caller && addr > 0 {
		addr--
	}
	key := [2]uint64{mid, addr}
	if w.locs[key] == nil {
		w.locs[key] = &profile.Location{ID: uint64(len(w.p.Location) + 1), Mapping: m, Address: addr}
		w.p.Location = append(w.p.Location, w.locs[key])
	}
	return w.locs[key]
}

// mapping is the pprof mapping of a process mapping: perf's start, limit
// and offset.
func (w *pprofWriter) mapping(sm *scriptMap) *profile.Mapping {
	if m := w.maps[*sm]; m != nil {
		return m
	}
	m := &profile.Mapping{ID: uint64(len(w.p.Mapping) + 1), Start: sm.start, Limit: sm.start + sm.size, Offset: sm.pgoff, File: sm.path}
	w.maps[*sm] = m
	w.p.Mapping = append(w.p.Mapping, m)
	return m
}

// PprofSamples lists a pprof profile's samples, sorted: their values and
// frames (mapping file, address, functions), with none of its numbering,
// for tests that compare profiles whose mappings, locations and
// functions may be numbered in another order.
func PprofSamples(t testing.TB, data []byte) []byte {
	t.Helper()
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range p.Sample {
		line := fmt.Sprint(s.Value)
		for _, l := range s.Location {
			line += " " + frameString(l)
		}
		lines = append(lines, line)
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n"))
}

// frameString is a location as its mapping's file, address and functions.
func frameString(l *profile.Location) string {
	file := ""
	if l.Mapping != nil {
		file = l.Mapping.File
	}
	s := fmt.Sprintf("%s@%#x", file, l.Address)
	for _, ln := range l.Line {
		s += "/" + ln.Function.Name
	}
	return s
}
