package driver

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/contprof"
	"github.com/profgen/profgen/internal/testutil/profwrite"
)

// testdata/t.bin: main (0x401120) calls bar (0x401110); its code segment
// is at file offset 0x1000, vaddr 0x401000, build id tBinID.
const tBinID = "871d58ca90b59becb439f0741693aedd202cbbbe"

// profStack is a sample of a profile written by the tests: ELF virtual
// addresses of t.bin, leaf first, callers at the return address − 1, and
// its count.
type profStack struct {
	vaddrs []uint64
	n      int64
}

var tStacks = []profStack{
	{[]uint64{0x401114, 0x401133}, 5},
	{[]uint64{0x401118, 0x401133}, 3},
	{[]uint64{0x401125}, 2},
	{[]uint64{0x40111c, 0x401140}, 7},
}

// tMapping is how a profile maps t.bin: at a runtime address (as
// perf_to_profile and Go write it), or pprof's fake mapping of ELF
// virtual addresses.
type tMapping struct {
	file, buildID string
	fake          bool
}

const runtimeBase = 0x555500000000 // where the runtime mapping puts file offset 0x1000

func (tm tMapping) mapping() *profile.Mapping {
	m := &profile.Mapping{ID: 1, File: tm.file, BuildID: tm.buildID}
	if !tm.fake {
		m.Start, m.Limit, m.Offset = runtimeBase+0x1000, runtimeBase+0x2000, 0x1000
	}
	return m
}

// addr is vaddr as the mapping writes it.
func (tm tMapping) addr(vaddr uint64) uint64 {
	if tm.fake {
		return vaddr
	}
	return vaddr - 0x401000 + runtimeBase + 0x1000
}

// writePprof writes a CPU pprof profile of stacks in t.bin at path.
func writePprof(t *testing.T, path string, tm tMapping, stacks []profStack) {
	t.Helper()
	m := tm.mapping()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Mapping: []*profile.Mapping{m},
	}
	locs := map[uint64]*profile.Location{}
	for _, s := range stacks {
		smp := &profile.Sample{Value: []int64{s.n, s.n * 10000000}}
		for _, v := range s.vaddrs {
			if locs[v] == nil {
				locs[v] = &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Address: tm.addr(v)}
				p.Location = append(p.Location, locs[v])
			}
			smp.Location = append(smp.Location, locs[v])
		}
		p.Sample = append(p.Sample, smp)
	}
	writeProfileFile(t, path, p)
}

func writeProfileFile(t *testing.T, path string, p *profile.Profile) {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// convertProfiles runs profgen on profiles into format and returns the
// output and the result.
func convertProfiles(t *testing.T, format string, profiles []string, more func(*Options)) ([]byte, *Result, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	opts := Options{Profiles: profiles, Binaries: []string{"testdata/t.bin"}, Format: format, Output: out, Quiet: true}
	if more != nil {
		more(&opts)
	}
	res, err := Convert(context.Background(), opts)
	if err != nil {
		return nil, nil, err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data, res, nil
}

// TestProfilesAnyGrouping: the stacks of one profile, split into files
// grouped and named in other orders, written with a fake mapping of ELF
// virtual addresses, or read by their CPU time, give byte-identical
// outputs.
func TestProfilesAnyGrouping(t *testing.T) {
	dir := t.TempDir()
	runtime := tMapping{file: "/srv/app/t.bin", buildID: tBinID}
	one := filepath.Join(dir, "one.pb.gz")
	writePprof(t, one, runtime, tStacks)
	split := filepath.Join(dir, "split")
	os.Mkdir(split, 0o755)
	writePprof(t, filepath.Join(split, "a"), runtime, tStacks[2:])
	writePprof(t, filepath.Join(split, "b"), runtime, tStacks[:1])
	writePprof(t, filepath.Join(split, "c"), tMapping{file: "t.bin", fake: true}, tStacks[1:2])
	fake := filepath.Join(dir, "fake.pb.gz")
	writePprof(t, fake, tMapping{file: "t.bin", fake: true}, tStacks)
	for _, format := range []string{"text", "pprof", "gcc"} {
		want, res, err := convertProfiles(t, format, []string{one}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Samples.Used != 17 {
			t.Errorf("%s: %d samples used, want 17", format, res.Samples.Used)
		}
		cpuTime := func(o *Options) { o.SampleType = "cpu/nanoseconds" }
		if got, _, err := convertProfiles(t, format, []string{one}, cpuTime); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s of cpu/nanoseconds differs from that of samples/count (%v)", format, err)
		}
		for _, in := range [][]string{{split}, {fake}} {
			got, _, err := convertProfiles(t, format, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s of %v differs from that of one file", format, in)
			}
		}
	}
}

// TestProfileBuildIDMatch: a mapping matches --binary by build id whatever
// its path; another build of the same name stays out of the binary.
func TestProfileBuildIDMatch(t *testing.T) {
	tests := []struct {
		name      string
		m         tMapping
		used      uint64
		otherExpr uint64
	}{
		{"same id, other name", tMapping{file: "/opt/renamed", buildID: tBinID}, 17, 0},
		{"same name, no id", tMapping{file: "/x/t.bin"}, 17, 0},
		{"same name, other id", tMapping{file: "/x/t.bin", buildID: "00112233"}, 0, 7},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "p.pb.gz")
		writePprof(t, path, tt.m, tStacks)
		_, res, err := convertProfiles(t, "text", []string{path}, nil)
		if tt.used == 0 {
			if !errors.Is(err, ErrNoSamples) {
				t.Errorf("%s: error %v, want ErrNoSamples", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if res.Samples.Used != tt.used || res.Profiles.OtherBuild != tt.otherExpr {
			t.Errorf("%s: used %d, other build frames %d; want %d, %d", tt.name, res.Samples.Used, res.Profiles.OtherBuild, tt.used, tt.otherExpr)
		}
	}
}

// TestProfileRefused: profiles that give nothing fail in one line naming
// the file and why.
func TestProfileRefused(t *testing.T) {
	dir := t.TempDir()
	alloc := filepath.Join(dir, "alloc.pb.gz")
	writeProfileFile(t, alloc, &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}})
	kernel := filepath.Join(dir, "kernel.pb.gz")
	km := &profile.Mapping{ID: 1, File: "[kernel.kallsyms]", Start: 0xffffffff81000000, Limit: 0xffffffff82000000}
	kl := &profile.Location{ID: 1, Mapping: km, Address: 0xffffffff81000100}
	writeProfileFile(t, kernel, &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Mapping: []*profile.Mapping{km}, Location: []*profile.Location{kl},
		Sample: []*profile.Sample{{Location: []*profile.Location{kl}, Value: []int64{4}}}})
	tests := []struct {
		file string
		want []string
	}{
		{alloc, []string{alloc, "no CPU sample type", "alloc_space/bytes"}},
		{kernel, []string{kernel, "no usable samples", "4 samples, none in t.bin"}},
	}
	for _, tt := range tests {
		_, _, err := convertProfiles(t, "text", []string{tt.file}, nil)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: error %v, want one line", tt.file, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.file, err, w)
			}
		}
	}
}

// TestProfileFiles: a directory is its regular files sorted by name; an
// empty one is refused.
func TestProfileFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a", "c"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	got, err := profileFiles([]string{"x.pb", dir})
	if err == nil {
		t.Errorf("missing file: no error (%v)", got)
	}
	got, err = profileFiles([]string{dir, filepath.Join(dir, "a")})
	want := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c"), filepath.Join(dir, "a")}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("files %v, %v; want %v", got, err, want)
	}
	if _, err := profileFiles([]string{filepath.Join(dir, "sub")}); err == nil {
		t.Error("empty directory: no error")
	}
}

// TestMappingMatcher: the rules by which a profile's mapping becomes a
// binary's (profilematch.go), on testdata/t.bin.
func TestMappingMatcher(t *testing.T) {
	f, err := binary.Open("testdata/t.bin", binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	htl := fileHTLHash("testdata/t.bin")
	tests := []struct {
		name, path string
		ids        contprof.BuildIDs
		wantPath   string
		other      bool
	}{
		{"GNU id", "/a/b", contprof.BuildIDs{GNU: tBinID}, "testdata/t.bin", false},
		{"htlhash", "/a/stripped", contprof.BuildIDs{HTLHash: htl}, "testdata/t.bin", false},
		{"base name", "/srv/t.bin", contprof.BuildIDs{}, "testdata/t.bin", false},
		{"base name, other htlhash", "/srv/t.bin", contprof.BuildIDs{HTLHash: "00"}, "testdata/t.bin", false},
		{"base name, other GNU id", "/srv/t.bin", contprof.BuildIDs{GNU: "00"}, "/srv/t.bin (build id 00)", true},
		{"base name, Go id, binary has none", "/srv/t.bin", contprof.BuildIDs{Go: "x/y"}, "testdata/t.bin", false},
		{"other", "/lib/libc.so.6", contprof.BuildIDs{GNU: "00"}, "/lib/libc.so.6", false},
	}
	mt := newMappingMatcher(&binaries{files: []*binary.File{f}, filePaths: []string{"testdata/t.bin"}})
	for _, tt := range tests {
		p := &contprof.Profile{Mappings: []contprof.Mapping{{Path: tt.path, BuildIDs: tt.ids}}}
		mt.place(p)
		if p.Mappings[0].Path != tt.wantPath || mt.otherBuild[0] != tt.other {
			t.Errorf("%s: path %q, other build %v; want %q, %v", tt.name, p.Mappings[0].Path, mt.otherBuild[0], tt.wantPath, tt.other)
		}
	}
}

// TestHTLHashIndex finds a file of --binary-dir, in a subdirectory, by
// its htlhash.
func TestHTLHashIndex(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/t.bin")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "x", "y"), 0o755)
	want := filepath.Join(dir, "x", "y", "app")
	os.WriteFile(want, data, 0o755)
	os.WriteFile(filepath.Join(dir, "other"), data[:100], 0o644)
	x := &htlhashIndex{dirs: []string{dir}}
	if got, ok := x.find(fileHTLHash("testdata/t.bin")); !ok || got != want {
		t.Errorf("found %q, %v; want %q", got, ok, want)
	}
	if _, ok := x.find("0011"); ok {
		t.Error("found an htlhash no file has")
	}
}

// TestProfileInterpretedOnly: a profile of interpreter frames alone (an
// OTLP cpython stack) fails with ErrNoSamples, saying so in one line.
func TestProfileInterpretedOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "py.otlp")
	profwrite.WriteOTLPFrameType(t, path, "cpython", 3)
	_, _, err := convertProfiles(t, "text", []string{path}, nil)
	if !errors.Is(err, ErrNoSamples) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "cpython") {
		t.Errorf("error %v, want one line of ErrNoSamples naming the cpython frames", err)
	}
}
