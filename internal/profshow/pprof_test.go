package profshow

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
)

// testPprof is main → _Z3fooi (inlined ns::bar into it) and main → baz.
func testPprof() *profile.Profile {
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	mainF, foo, bar, baz := fn(1, "main"), fn(2, "_Z3fooi"), fn(3, "_ZN2ns3barEv"), fn(4, "baz")
	loc := func(id uint64, fs ...*profile.Function) *profile.Location {
		l := &profile.Location{ID: id, Address: 0x1000 + id}
		for _, f := range fs {
			l.Line = append(l.Line, profile.Line{Function: f, Line: int64(id)})
		}
		return l
	}
	lMain, lFoo, lBaz := loc(1, mainF), loc(2, bar, foo), loc(3, baz)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lFoo, lMain}, Value: []int64{3, 3000}},
			{Location: []*profile.Location{lBaz, lMain}, Value: []int64{1, 1000}},
			{Location: []*profile.Location{lMain}, Value: []int64{1, 500}},
		},
		Location: []*profile.Location{lMain, lFoo, lBaz},
		Function: []*profile.Function{mainF, foo, bar, baz},
	}
}

func TestPprofSummary(t *testing.T) {
	s := SummarizePprof(testPprof(), 10)
	if s.SampleType != "cpu/nanoseconds" || s.Total != 4500 || s.Functions != 4 {
		t.Errorf("summary %+v", s)
	}
	var b bytes.Buffer
	WritePprofSummary(&b, s)
	WriteJSON(&b, s)
	checkGolden(t, "pprof.txt", b.Bytes())
}

func TestPprofFunction(t *testing.T) {
	p := testPprof()
	f, err := FindPprofFunction(p, "foo(int)")
	if err != nil {
		t.Fatal(err)
	}
	if f.Flat != 0 || f.Cum != 3000 {
		t.Errorf("foo: flat %d cum %d, want 0 3000", f.Flat, f.Cum)
	}
	var b bytes.Buffer
	for _, name := range []string{"main", "ns::bar"} {
		f, err := FindPprofFunction(p, name)
		if err != nil {
			t.Fatal(err)
		}
		WritePprofFunction(&b, f)
	}
	checkGolden(t, "pprof-functions.txt", b.Bytes())
	if _, err := FindPprofFunction(p, "nosuch"); err == nil {
		t.Error("found nosuch")
	}
}
