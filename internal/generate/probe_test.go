package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/testutil"
)

// probeBinary reads what ProbeProfile needs of a test binary.
func probeBinary(t testing.TB, in *testInput) ProbeBinary {
	t.Helper()
	desc, probes, err := pseudoprobe.Sections(in.elf)
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := in.elf.Symbols()
	pb := ProbeBinary{Desc: desc, Probes: probes}
	for _, s := range syms {
		pb.Symbols = append(pb.Symbols, symbolize.Symbol{Addr: s.Value, Name: s.Name})
	}
	return pb
}

func probeProfileText(t testing.TB, in *testInput, c Counters) []byte {
	t.Helper()
	p, _, err := ProbeProfile(c, in.code, in.sym, probeBinary(t, in), nil)
	if err != nil {
		t.Fatal(err)
	}
	return profileText(t, p)
}

// TestProbeMatchesLLVMProfgen compares the probe-based text profile of
// synthetic counters over the whole code of pseudo-probe binaries (one
// with flow-sensitive discriminators: probes with discriminators) with
// llvm-profgen-19's from the same counters as an unsymbolized profile.
func TestProbeMatchesLLVMProfgen(t *testing.T) {
	ref := testutil.Tool(t, "llvm-profgen-19")
	for _, path := range []string{"testdata/cxx-probe.bin", "testdata/cxx-fsprobe.bin"} {
		t.Run(filepath.Base(path), func(t *testing.T) { probeMatchesLLVMProfgen(t, ref, path) })
	}
}

func probeMatchesLLVMProfgen(t *testing.T, ref, path string) {
	for seed := int64(1); seed <= 3; seed++ {
		in := openTestInput(t, path)
		c := synthCounters(in.code, seed)
		dir := t.TempDir()
		var raw bytes.Buffer
		writeUnsymbolized(&raw, c, in.base)
		rawPath, refPath := filepath.Join(dir, "raw.txt"), filepath.Join(dir, "ref.txt")
		os.WriteFile(rawPath, raw.Bytes(), 0o644)
		runTool(t, ref, "--binary="+path, "--unsymbolized-profile="+rawPath, "--format=text", "--output="+refPath)
		want, _ := os.ReadFile(refPath)
		t.Logf("seed %d: %d ranges, %d branches, %d bytes of profile", seed, len(c.Ranges), len(c.Branches), len(want))
		if got := probeProfileText(t, in, c); !bytes.Equal(got, want) {
			gotPath := filepath.Join(os.TempDir(), "profgen-probe.txt")
			os.WriteFile(gotPath, got, 0o644)
			os.WriteFile(gotPath+".ref", want, 0o644)
			t.Fatalf("seed %d: profile differs from llvm-profgen-19: diff %s %s.ref", seed, gotPath, gotPath)
		}
	}
}

// TestProbeProfileShape checks, on counters written by hand, what makes a
// profile probe-based: body keys are probe indexes, every function has its
// checksum, the entry probe gives the head samples.
func TestProbeProfileShape(t *testing.T) {
	in := openTestInput(t, "testdata/cxx-probe.bin")
	pb := probeBinary(t, in)
	descs, err := pseudoprobe.DecodeDescs(pb.Desc)
	if err != nil {
		t.Fatal(err)
	}
	mainRange := in.sym.FuncRangeStartingAt(symbolAddr(t, in, "main"))
	if mainRange == nil {
		t.Fatal("no DWARF range for main")
	}
	c := Counters{Ranges: map[Range]uint64{{Start: mainRange.Start, End: mainRange.End - 1}: 7}, Branches: map[record.Branch]uint64{}}
	p, _, err := ProbeProfile(c, in.code, in.sym, pb, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Functions["main"]
	if !p.ProbeBased || f == nil {
		t.Fatalf("got %+v", p)
	}
	if want := descs.Lookup(sampleprof.MD5Name("main")).Hash; f.Checksum != want || f.Checksum == 0 {
		t.Errorf("checksum %d, want %d", f.Checksum, want)
	}
	if r := f.Body[sampleprof.LineLocation{LineOffset: 1}]; r == nil || r.Samples != 7 || f.HeadSamples != 7 {
		t.Errorf("entry probe: %+v, head %d", r, f.HeadSamples)
	}
}

func symbolAddr(t *testing.T, in *testInput, name string) uint64 {
	t.Helper()
	syms, _ := in.elf.Symbols()
	for _, s := range syms {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("no symbol %s", name)
	return 0
}

// TestProbeProfileDamagedSections: a damaged probe section is an error
// naming the section and the byte, never a profile from garbage.
func TestProbeProfileDamagedSections(t *testing.T) {
	in := openTestInput(t, "testdata/cxx-probe.bin")
	c := synthCounters(in.code, 1)
	for _, tt := range []struct {
		name   string
		damage func(*ProbeBinary)
		want   string
	}{
		{"probes cut short", func(pb *ProbeBinary) { pb.Probes = pb.Probes[:len(pb.Probes)-3] }, ".pseudo_probe+0x"},
		{"descriptors cut short", func(pb *ProbeBinary) { pb.Desc = pb.Desc[:len(pb.Desc)-3] }, ".pseudo_probe_desc+0x"},
		{"no descriptors", func(pb *ProbeBinary) { pb.Desc = nil }, "names a function .pseudo_probe_desc does not describe"},
	} {
		pb := probeBinary(t, in)
		tt.damage(&pb)
		_, _, err := ProbeProfile(c, in.code, in.sym, pb, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}
