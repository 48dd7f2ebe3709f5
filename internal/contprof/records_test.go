package contprof

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
)

// fakeBinary is a profiled binary whose virtual addresses are its file
// offsets + 0x10000.
type fakeBinary string

func (b fakeBinary) Path() string { return string(b) }

func (b fakeBinary) VaddrOfOffset(off uint64) (uint64, bool) { return off + 0x10000, true }

// TestRecordsAggregate: the records of a profile, through the call-stack
// aggregation, give back its frames (file offsets, callers inside their
// call instruction) and weights; a fake mapping's virtual addresses go
// through the offset function.
func TestRecordsAggregate(t *testing.T) {
	p, err := Decode(encodePprof(t, testPprof("samples/count"), false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	toOffset := func(m *Mapping, vaddr uint64) (uint64, bool) { return vaddr - 0x1000, true }
	agg := aggregate.NewStacks([]aggregate.StackBinary{fakeBinary("/usr/bin/app")}, nil)
	for src := p.Records(toOffset); src.Next(); {
		if err := agg.Add(src.Record()); err != nil {
			t.Fatal(err)
		}
	}
	c := agg.Counts()
	got := map[string]uint64{}
	for _, s := range c.Stacks {
		got[stackString(c, s.Locs)] += s.Count
	}
	want := map[string]uint64{
		"[kernel.kallsyms]:0xffffffff81000010 /usr/bin/app:0x11235 /usr/bin/app:0x12000": 3,
		"/usr/lib/libfake.so:0x3567 [unknown]:0x1234 /usr/bin/app:0x12000":               2,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func stackString(c *aggregate.StackCounts, locs []aggregate.Loc) string {
	s := ""
	for i, l := range locs {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s:%#x", c.Objects[l.Obj].Path, l.Addr)
	}
	return s
}

// TestRecordsCPUTime: a Sample's CPU time becomes its records' periods
// (q and q + 1 when its weight does not divide it), its time range their
// times (in microseconds, the last in a record of no sample), and a Clock
// profile's records are of perf's cpu-clock event.
func TestRecordsCPUTime(t *testing.T) {
	type rec struct {
		count, period, ns uint64
		event             string
	}
	tests := []struct {
		name  string
		clock bool
		s     Sample
		want  []rec
	}{
		{"divides", true, Sample{Weight: 2, CPUTime: 20}, []rec{{2, 10, 0, "cpu-clock"}}},
		{"split", true, Sample{Weight: 3, CPUTime: 10, FirstNS: 5500, LastNS: 9999},
			[]rec{{2, 3, 5000, "cpu-clock"}, {1, 4, 5000, "cpu-clock"}, {0, 4, 9000, "cpu-clock"}}},
		{"one time", false, Sample{Weight: 1, FirstNS: 7000, LastNS: 7000}, []rec{{1, 0, 7000, "samples/count"}}},
	}
	for _, tt := range tests {
		tt.s.Frames = []Frame{{0, 0x100}}
		p := &Profile{SampleType: "samples/count", Clock: tt.clock, Mappings: []Mapping{{Path: "/app"}}, Samples: []Sample{tt.s}}
		var got []rec
		for src := p.Records(nil); src.Next(); {
			s := src.Record().Sample
			got = append(got, rec{s.Count, s.Period, s.TimeNS, s.Event})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: records %v, want %v", tt.name, got, tt.want)
		}
	}
}
