package contprof

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// testPprof is a perf_to_profile-like profile: runtime addresses in a
// real mapping (file offset = address − 0x7f0000401000 + 0x1000), an ELF
// virtual address in a fake mapping, a kernel frame, and a frame in no
// mapping.
func testPprof(types ...string) *profile.Profile {
	app := &profile.Mapping{ID: 1, Start: 0x7f0000401000, Limit: 0x7f0000500000, Offset: 0x1000, File: "/usr/bin/app", BuildID: "ABCDEF01"}
	fake := &profile.Mapping{ID: 2, Start: 0, Limit: ^uint64(0), File: "/usr/lib/libfake.so", BuildID: "go-build-id/x"}
	kern := &profile.Mapping{ID: 3, Start: 0xffffffff81000000, Limit: 0xffffffff82000000, File: "[kernel.kallsyms]_text"}
	loc := func(id uint64, m *profile.Mapping, addr uint64) *profile.Location {
		return &profile.Location{ID: id, Mapping: m, Address: addr}
	}
	leaf, caller, inFake, inKern, none := loc(1, app, 0x7f0000401234), loc(2, app, 0x7f0000402000),
		loc(3, fake, 0x4567), loc(4, kern, 0xffffffff81000010), loc(5, nil, 0x1234)
	p := &profile.Profile{
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10e6,
		Mapping:    []*profile.Mapping{app, fake, kern},
		Location:   []*profile.Location{leaf, caller, inFake, inKern, none},
	}
	for _, t := range types {
		typ, unit, _ := strings.Cut(t, "/")
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: typ, Unit: unit})
	}
	sample := func(n int64, locs ...*profile.Location) *profile.Sample {
		vals := make([]int64, len(types))
		for i, t := range types {
			vals[i] = n
			if strings.HasSuffix(t, "nanoseconds") {
				vals[i] = n * 10e6
			}
		}
		return &profile.Sample{Location: locs, Value: vals}
	}
	p.Sample = []*profile.Sample{
		sample(3, inKern, leaf, caller),
		sample(2, inFake, none, caller),
		sample(1, none),
	}
	return p
}

func encodePprof(t testing.TB, p *profile.Profile, gzipped bool) []byte {
	var buf bytes.Buffer
	write := p.WriteUncompressed
	if gzipped {
		write = p.Write
	}
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPprof(t *testing.T) {
	app, fake, kern, unknown := int32(0), int32(1), int32(2), int32(3)
	samples := []Sample{
		// The user leaf under the kernel frame: perf_to_profile took 1.
		{Frames: []Frame{{kern, 0xffffffff81000010}, {app, 0x1235}, {app, 0x2000}}, Weight: 3, CPUTime: 30000000},
		// The frame in no mapping is kept by its address, as perf's [unknown].
		{Frames: []Frame{{fake, 0x4567}, {unknown, 0x1234}, {app, 0x2000}}, Weight: 2, CPUTime: 20000000},
		{Frames: []Frame{{unknown, 0x1234}}, Weight: 1, CPUTime: 10000000},
	}
	tests := []struct {
		name     string
		types    []string
		gzipped  bool
		wantType string
	}{
		{"samples", []string{"samples/count", "cpu/nanoseconds"}, false, "samples/count"},
		{"gzipped", []string{"cpu/nanoseconds", "samples/count"}, true, "samples/count"},
		{"cpu time only", []string{"cpu/nanoseconds"}, false, "cpu/nanoseconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(encodePprof(t, testPprof(tt.types...), tt.gzipped), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != KindPprof || p.SampleType != tt.wantType || !p.Clock || !reflect.DeepEqual(p.Samples, samples) {
				t.Errorf("%v %s %+v", p.Kind, p.SampleType, p.Samples)
			}
			want := Stats{Weight: 6, KernelFrames: 1, Interpreted: map[string]uint64{}, NoMapping: 2}
			if !reflect.DeepEqual(p.Stats, want) {
				t.Errorf("stats %+v, want %+v", p.Stats, want)
			}
			m := p.Mappings
			if m[app].BuildIDs.GNU != "abcdef01" || m[fake].BuildIDs.Go != "go-build-id/x" || !m[fake].VirtualAddrs || !m[kern].Kernel || !m[unknown].Unknown {
				t.Errorf("mappings %+v", m)
			}
		})
	}
}

func TestPprofRefused(t *testing.T) {
	namesOnly := testPprof("samples/count")
	for _, l := range namesOnly.Location {
		l.Address = 0
	}
	noMappings := testPprof("samples/count")
	for _, l := range noMappings.Location {
		l.Mapping = nil
	}
	noMappings.Mapping = nil
	noMappings.Sample[0].Location = noMappings.Sample[0].Location[1:] // the kernel frame
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"no mappings", encodePprof(t, noMappings, false), "pprof: its locations are in no mapping"},
		{"alloc", encodePprof(t, testPprof("alloc_objects/count", "alloc_space/bytes"), false),
			"pprof: no CPU sample type (samples/count, CPU-EVENT_sample/count, cpu/nanoseconds) among the profile's \"alloc_objects/count\", \"alloc_space/bytes\""},
		{"names only", encodePprof(t, namesOnly, true), "pprof: its locations carry no addresses"},
		{"truncated", encodePprof(t, testPprof("samples/count"), false)[:50], "pprof: offset "},
		{"not a profile", []byte("hello"), "pprof: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.data, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tt.want)
			}
		})
	}
}

func FuzzPprof(f *testing.F) {
	f.Add(encodePprof(f, testPprof("samples/count", "cpu/nanoseconds"), false))
	f.Add(encodePprof(f, testPprof("cpu/nanoseconds"), true))
	whole := encodePprof(f, testPprof("samples/count"), false)
	f.Add(whole[:len(whole)/2]) // truncated
	gz := encodePprof(f, testPprof("samples/count"), true)
	f.Add(gz[:len(gz)-4])                                   // a gzip stream cut short
	f.Add([]byte{0x1a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20}) // oversized: a sample of 2^40 bytes that are not there
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data, Options{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		checkFrames(t, p)
	})
}
