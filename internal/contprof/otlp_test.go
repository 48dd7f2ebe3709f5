package contprof

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// pb builds protobuf messages for the tests, field by field.
type pb []byte

func (m pb) v(num protowire.Number, val uint64) pb {
	return protowire.AppendVarint(protowire.AppendTag(m, num, protowire.VarintType), val)
}

func (m pb) b(num protowire.Number, data []byte) pb {
	return protowire.AppendBytes(protowire.AppendTag(m, num, protowire.BytesType), data)
}

func (m pb) s(num protowire.Number, s string) pb { return m.b(num, []byte(s)) }

func (m pb) m(num protowire.Number, sub pb) pb { return m.b(num, sub) }

// packed appends a packed repeated integer field.
func (m pb) packed(num protowire.Number, vals ...uint64) pb {
	var p []byte
	for _, v := range vals {
		p = protowire.AppendVarint(p, v)
	}
	return m.b(num, p)
}

// stamps appends n packed fixed64 timestamps.
func (m pb) stamps(num protowire.Number, n int) pb {
	var p []byte
	for i := range n {
		p = protowire.AppendFixed64(p, uint64(1e18)+uint64(i))
	}
	return m.b(num, p)
}

// The strings of testDict, by index.
const (
	sSamples = iota + 1
	sCount
	sCPU
	sNanos
	sApp
	sBuildGNU
	sFrameType
	sNative
	sKernel
	sPython
	sAllocs
	sHTL
	sNumStrings
)

var testStrings = [sNumStrings]string{"", "samples", "count", "cpu", "nanoseconds", "/usr/bin/app",
	attrBuildIDGNU, attrFrameType, "native", "kernel", "cpython", "alloc_objects", attrHTLHash}

// stringTable is a dictionary of testStrings alone.
func stringTable() pb {
	var d pb
	for _, s := range testStrings {
		d = d.s(dictStrings, s)
	}
	return d
}

// testDict is a dictionary of one mapping (file offset = address −
// 0x1000 + 0x200), native, kernel and Python locations, and two stacks.
func testDict() pb {
	d := stringTable()
	attr := func(key, val int) pb {
		return pb{}.v(1, uint64(key)).m(2, pb{}.s(1, testStrings[val]))
	}
	d = d.m(dictAttrs, nil).
		m(dictAttrs, pb{}.v(1, sBuildGNU).m(2, pb{}.s(1, "ABCDEF01"))). // 1
		m(dictAttrs, attr(sFrameType, sNative)).                        // 2
		m(dictAttrs, attr(sFrameType, sKernel)).                        // 3
		m(dictAttrs, attr(sFrameType, sPython)).                        // 4
		m(dictAttrs, pb{}.v(1, sHTL).m(2, pb{}.s(1, "00112233")))       // 5
	d = d.m(dictMappings, nil).
		m(dictMappings, pb{}.v(1, 0x1000).v(2, 0x5000).v(3, 0x200).v(4, sApp).packed(5, 1, 5))
	d = d.m(dictLocations, nil).
		m(dictLocations, pb{}.v(1, 1).v(2, 0x1234).packed(4, 2)).     // 1: app, leaf
		m(dictLocations, pb{}.v(1, 1).v(2, 0x2000).packed(4, 2)).     // 2: app, caller
		m(dictLocations, pb{}.v(2, 0xffffffff81000000).packed(4, 3)). // 3: kernel
		m(dictLocations, pb{}.packed(4, 4)).                          // 4: Python
		m(dictLocations, pb{}.v(1, 1).v(2, 0x9000))                   // 5: outside the mapping
	return d.m(dictStacks, nil).
		m(dictStacks, pb{}.packed(1, 3, 1, 2)). // 1
		m(dictStacks, pb{}.packed(1, 4, 1)).    // 2
		m(dictStacks, pb{}.packed(1, 5, 4))     // 3: nothing native
}

// otlpMessage is a ProfilesData of one resource, scope and profile.
func otlpMessage(dict, profile pb) pb {
	scope := pb{}.m(2, profile)
	resource := pb{}.m(1, pb{}).m(2, scope)
	return pb{}.m(1, resource).m(2, dict)
}

// cpuProfile is a Profile of samples/count with period cpu/nanoseconds.
func cpuProfile(samples ...pb) pb {
	p := pb{}.m(1, pb{}.v(1, sSamples).v(2, sCount)).v(4, 1e9).m(5, pb{}.v(1, sCPU).v(2, sNanos)).v(6, 50e6)
	for _, s := range samples {
		p = p.m(2, s)
	}
	return p
}

func TestOTLP(t *testing.T) {
	msg := otlpMessage(testDict(), cpuProfile(
		pb{}.v(1, 1).packed(4, 2),
		pb{}.v(1, 2).stamps(5, 3),
		pb{}.v(1, 1).packed(4, 1),
		pb{}.v(1, 3).packed(4, 5),
	))
	p, err := Decode(msg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kernel, app := int32(0), int32(1)
	want := &Profile{
		Kind:       KindOTLP,
		SampleType: "samples/count",
		Mappings: []Mapping{
			{Path: kernelPath, Kernel: true},
			{Path: "/usr/bin/app", Start: 0x1000, Limit: 0x5000, Offset: 0x200,
				BuildIDs: BuildIDs{GNU: "abcdef01", HTLHash: "00112233"}},
		},
		Samples: []Sample{
			{Frames: []Frame{{kernel, 0xffffffff81000000}, {app, 0x434}, {app, 0x1200}}, Weight: 3, CPUTime: 150000000},
			// Its timestamps give its time range.
			{Frames: []Frame{{app, 0x434}}, Weight: 3, CPUTime: 150000000, FirstNS: 1e18, LastNS: 1e18 + 2},
		},
		Stats: Stats{Weight: 6, KernelFrames: 2, Interpreted: map[string]uint64{"cpython": 2}, Outside: 1, Empty: 5},
		Clock: true, // samples/count of a cpu/nanoseconds period: each sample is 50 ms of CPU
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got\n%+v\nwant\n%+v", p, want)
	}
}

// TestOTLPOtherTypes: an off-CPU profile beside the CPU one is skipped
// and counted.
func TestOTLPOtherTypes(t *testing.T) {
	offCPU := pb{}.m(1, pb{}.v(1, sAllocs).v(2, sNanos)).m(2, pb{}.v(1, 1).packed(4, 5000))
	scope := pb{}.m(2, offCPU).m(2, cpuProfile(pb{}.v(1, 1).packed(4, 2)))
	msg := pb{}.m(1, pb{}.m(2, scope)).m(2, testDict())
	p, err := Decode(msg, Options{})
	if err != nil || p.Stats.OtherTypes != 1 || p.Stats.Weight != 2 {
		t.Fatalf("%+v, %v", p, err)
	}
}

func TestOTLPGzipped(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(otlpMessage(testDict(), cpuProfile(pb{}.v(1, 1).packed(4, 2))))
	zw.Close()
	p, err := Decode(buf.Bytes(), Options{})
	if err != nil || p.Kind != KindOTLP || p.Stats.Weight != 2 {
		t.Fatalf("%+v, %v", p, err)
	}
}

func TestOTLPRefused(t *testing.T) {
	good := cpuProfile(pb{}.v(1, 1).packed(4, 1))
	noStacks := pb{}.s(dictStrings, "").m(dictLocations, nil)
	tests := []struct {
		name string
		msg  pb
		opts Options
		want string
	}{
		{"no dictionary", pb{}.m(1, pb{}.m(2, pb{}.m(2, good))), Options{}, "no dictionary (ProfilesData field 2)"},
		{"no stack table", otlpMessage(noStacks, good), Options{}, "no stack_table (field 7)"},
		{"two dictionaries", otlpMessage(testDict(), good).m(2, testDict()), Options{}, "a second dictionary"},
		{"old sample", otlpMessage(testDict(), cpuProfile(pb{}.v(1, 0).v(2, 3).packed(3, 1))),
			Options{}, "a sample's link_index (field 3) has wire type 2, not 0"},
		{"unknown sample field", otlpMessage(testDict(), cpuProfile(pb{}.v(1, 1).v(9, 1))),
			Options{}, "a sample has a field 9: not the profiles/v1development layout"},
		{"old attribute", otlpMessage(pb{}.m(dictAttrs, pb{}.s(1, "key")), good),
			Options{}, "an attribute's key_strindex (field 1) has wire type 2"},
		{"two sample types", otlpMessage(testDict(), cpuProfile().m(1, pb{}.v(1, sCPU).v(2, sNanos))),
			Options{}, "a profile with 2 sample_type fields"},
		{"alloc", otlpMessage(testDict(), pb{}.m(1, pb{}.v(1, sAllocs).v(2, sCount)).m(2, pb{}.v(1, 1))),
			Options{}, "no CPU sample type (samples/count, CPU-EVENT_sample/count, cpu/nanoseconds) among the profile's \"alloc_objects/count\""},
		{"other type asked", otlpMessage(testDict(), good), Options{SampleType: "cpu/nanoseconds"},
			"no sample type cpu/nanoseconds among the profile's \"samples/count\""},
		{"stack outside", otlpMessage(testDict(), cpuProfile(pb{}.v(1, 9))), Options{}, "a sample's stack index 9 is outside its table of 4 entries"},
		{"location outside", otlpMessage(pb{}.m(dictLocations, nil).m(dictStacks, pb{}.packed(1, 7)), good),
			Options{}, "a stack's location index 7 is outside its table of 1 entries"},
		{"truncated", otlpMessage(testDict(), good)[:40], Options{}, "offset "},
		{"no mappings", otlpMessage(stringTable().m(dictLocations, nil).m(dictLocations, pb{}.v(2, 0x1234)).m(dictStacks, nil).m(dictStacks, pb{}.packed(1, 1)), good),
			Options{}, "otlp: its locations are in no mapping"},
		{"no profile", otlpMessage(testDict(), nil)[:0], Options{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.msg, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
		})
	}
}

func TestReadFileError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.otlp")
	msg := otlpMessage(testDict(), cpuProfile(pb{}.v(1, 1).packed(4, 2)))
	if err := os.WriteFile(path, msg[:len(msg)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, Options{})
	want := path + ": otlp: offset "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want one starting %q", err, want)
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want Kind
	}{
		{"otlp", otlpMessage(testDict(), cpuProfile()), KindOTLP},
		{"pprof string table", pb{}.s(6, ""), KindPprof},
		{"not protobuf", []byte("hello"), KindPprof},
		{"otlp cut short", otlpMessage(testDict(), cpuProfile())[:100], KindOTLP},
		{"pprof cut short", pb{}.m(1, pb{}.v(1, 1).v(2, 2)).m(2, pb{}.packed(1, 1, 2))[:8], KindPprof},
		{"pprof without sample types", pb{}.m(2, pb{}.packed(1, 1, 2)).s(6, ""), KindPprof},
		{"empty", nil, KindPprof},
	}
	for _, tt := range tests {
		if got := sniff(tt.data); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func FuzzOTLP(f *testing.F) {
	f.Add([]byte(otlpMessage(testDict(), cpuProfile(pb{}.v(1, 1).packed(4, 2), pb{}.v(1, 2).stamps(5, 3)))))
	f.Add([]byte(otlpMessage(testDict(), nil)))
	whole := otlpMessage(testDict(), cpuProfile(pb{}.v(1, 2).packed(4, 1)))
	f.Add([]byte(whole[:len(whole)/2]))                       // truncated
	f.Add([]byte(pb{}.v(2, 1<<40)[:1]))                       // a key and nothing more
	f.Add([]byte{0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20})   // oversized: a dictionary of 2^40 bytes that are not there
	f.Add([]byte(otlpMessage(pb{}.s(dictStrings, "x"), nil))) // a dictionary of strings only
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodeOTLP(data, Options{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		checkFrames(t, p)
	})
}

// checkFrames checks that every frame is in a mapping of the profile.
func checkFrames(t *testing.T, p *Profile) {
	for _, s := range p.Samples {
		for _, fr := range s.Frames {
			if fr.Mapping < 0 || int(fr.Mapping) >= len(p.Mappings) {
				t.Fatalf("frame %+v outside the %d mappings", fr, len(p.Mappings))
			}
		}
	}
}
