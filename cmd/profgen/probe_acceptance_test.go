package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// The pseudo-probe acceptance tests (issue 12): the probe test data
// (scripts/testdata.d/25-probe.sh: wordfreq, recurse, tailcall and sqlite built with
// -fpseudo-probe-for-profiling, LBR traces) through profgen and through
// llvm-profgen-19 / llvm-profdata-19.

// probePrograms returns the programs of the probe test data.
func probePrograms(t *testing.T) []string {
	dir := testutil.DataDir(t, "probe")
	var progs []string
	for _, p := range []string{"wordfreq", "recurse", "tailcall", "sqlite"} {
		if _, err := os.Stat(filepath.Join(dir, p, ".done")); err == nil {
			progs = append(progs, filepath.Join(dir, p))
		}
	}
	if len(progs) == 0 {
		t.Skip("no probe test data (make testdata)")
	}
	return progs
}

// TestProbeProfilesMatchLLVMProfgen: on LBR traces of probe binaries,
// profgen's text profile, unsymbolized profile and --use-dwarf-correlation
// profile are byte-identical to llvm-profgen-19's, its extbinary too but
// for the order of the function metadata section's records (see
// sameExtBinary), and reading llvm-profgen's unsymbolized profile back
// gives llvm-profgen's text.
func TestProbeProfilesMatchLLVMProfgen(t *testing.T) {
	needTools(t, "llvm-profgen-19")
	for _, dir := range probePrograms(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "single.script")
			tmp := t.TempDir()
			both := func(name string, args ...string) (ours, theirs []byte) {
				t.Helper()
				o, r := filepath.Join(tmp, name+".profgen"), filepath.Join(tmp, name+".llvm")
				profgen(t, append(args, "--binary", bin, "-o", o, "-q")...)
				runTool(t, "llvm-profgen-19", append(args, "--binary", bin, "-o", r)...)
				return readFile(t, o), readFile(t, r)
			}
			for _, c := range []struct {
				name string
				args []string
			}{
				{"text", []string{"--perfscript", script, "--format=text"}},
				{"raw", []string{"--perfscript", script, "--skip-symbolization"}},
				{"dwarf", []string{"--perfscript", script, "--format=text", "--use-dwarf-correlation"}},
			} {
				if ours, theirs := both(c.name, c.args...); !bytes.Equal(ours, theirs) {
					t.Errorf("%s: profgen's output differs from llvm-profgen-19's", c.name)
				}
			}
			ours, theirs := both("extbinary", "--perfscript", script)
			if err := sameExtBinary(ours, theirs); err != nil {
				t.Errorf("extbinary: %v", err)
			}
			if testutil.HasTool("perf") {
				text := filepath.Join(tmp, "perfdata.txt")
				profgen(t, "--perfdata", filepath.Join(dir, "single.perf.data"), "--binary", bin, "--format=text", "-q", "-o", text)
				if !bytes.Equal(readFile(t, text), readFile(t, filepath.Join(tmp, "text.llvm"))) {
					t.Error("--perfdata: profgen's text differs from llvm-profgen-19's of the script")
				}
			}
			showPseudoProbeMatches(t, bin, script)
			binaryFormatRefused(t, bin, script)
			raw := filepath.Join(tmp, "raw.llvm")
			if ours, theirs := both("fromraw", "--unsymbolized-profile", raw, "--format=text"); !bytes.Equal(ours, theirs) {
				t.Errorf("--unsymbolized-profile: profgen's text differs from llvm-profgen-19's")
			}
		})
	}
}

// TestCSProbeProfilesMatchLLVMProfgen: on hybrid traces of probe binaries
// (call stacks and branch stacks), profgen's flags give llvm-profgen-19's
// context-sensitive probe profiles byte for byte: unsymbolized, text
// (pre-inlined and nested by default, without pre-inliner, flat, without
// recursion compression, context-insensitive), from perf.data too, and the
// probe descriptors on stdout. (--compress-recursion=0 with the
// pre-inliner is left out: llvm-profgen-19 crashes or loops on recursion
// there; see internal/driver TestCSPreInlinerKeepsSamples.)
func TestCSProbeProfilesMatchLLVMProfgen(t *testing.T) {
	needTools(t, "llvm-profgen-19")
	for _, dir := range probePrograms(t) {
		script := filepath.Join(dir, "hybrid.script")
		if _, err := os.Stat(script); err != nil {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			bin := filepath.Join(dir, "binary")
			tmp := t.TempDir()
			for _, c := range []struct {
				name string
				args []string
			}{
				{"raw", []string{"--skip-symbolization"}},
				{"text", []string{"--format=text"}},
				{"preinliner=0", []string{"--format=text", "--csspgo-preinliner=0"}},
				{"nested=0", []string{"--format=text", "--gen-cs-nested-profile=0"}},
				{"compress-recursion=0,preinliner=0", []string{"--format=text", "--compress-recursion=0", "--csspgo-preinliner=0"}},
				{"ignore-stack-samples", []string{"--format=text", "--ignore-stack-samples"}},
			} {
				args := append([]string{"--perfscript", script, "--binary", bin}, c.args...)
				o, r := filepath.Join(tmp, c.name+".profgen"), filepath.Join(tmp, c.name+".llvm")
				profgen(t, append(args, "-o", o, "-q")...)
				runTool(t, "llvm-profgen-19", append(args, "-o", r)...)
				if !bytes.Equal(readFile(t, o), readFile(t, r)) {
					t.Errorf("%s: profgen's output differs from llvm-profgen-19's", c.name)
				}
			}
			if testutil.HasTool("perf") {
				text := filepath.Join(tmp, "perfdata.txt")
				profgen(t, "--perfdata", filepath.Join(dir, "hybrid.perf.data"), "--binary", bin, "--format=text", "-q", "-o", text)
				if !bytes.Equal(readFile(t, text), readFile(t, filepath.Join(tmp, "text.llvm"))) {
					t.Error("--perfdata: profgen's text differs from llvm-profgen-19's of the script")
				}
			}
			showPseudoProbeMatches(t, bin, script)
		})
	}
}

// showPseudoProbeMatches compares what --show-pseudo-probe prints on
// stdout while generating: the probe descriptors.
func showPseudoProbeMatches(t *testing.T, bin, script string) {
	t.Helper()
	args := []string{"--binary", bin, "--perfscript", script, "--show-pseudo-probe", "--format=text", "-o", filepath.Join(t.TempDir(), "p.txt")}
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("profgen %v: %v", args, err)
	}
	want := runTool(t, "llvm-profgen-19", args...)
	if !bytes.HasPrefix(want, []byte("Pseudo Probe Desc:\n")) || !bytes.Equal(out.Bytes(), want) {
		t.Errorf("--show-pseudo-probe prints %d bytes, llvm-profgen-19 %d", out.Len(), len(want))
	}
}

// binaryFormatRefused: the binary format has no room for checksums; both
// tools refuse it for a probe profile (llvm-profgen-19 leaves an empty
// file, profgen none).
func binaryFormatRefused(t *testing.T, bin, script string) {
	t.Helper()
	dir := t.TempDir()
	args := []string{"--binary", bin, "--perfscript", script, "--format=binary", "-q", "-o", filepath.Join(dir, "p.binary")}
	cmd := newRootCommand()
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs(args)
	if err := cmd.Execute(); err == nil {
		t.Error("profgen --format=binary wrote a probe profile")
	}
	if _, err := os.Stat(args[len(args)-1]); err == nil {
		t.Error("profgen --format=binary left an output file")
	}
	if exec.Command("llvm-profgen-19", "--binary", bin, "--perfscript", script, "--format=binary", "-o", filepath.Join(dir, "llvm.binary")).Run() == nil {
		t.Error("llvm-profgen-19 --format=binary wrote a probe profile")
	}
}

// sameExtBinary compares two extbinary profiles byte for byte, except that
// the top-level records of the function metadata section (CFG checksums)
// may come in another order: llvm-profgen writes them in the order of its
// hash map of profiles, filled in an order that depends on the heap
// addresses of its decoded probes; profgen writes them in profile order.
func sameExtBinary(ours, theirs []byte) error {
	if len(ours) != len(theirs) {
		return fmt.Errorf("%d bytes, llvm %d", len(ours), len(theirs))
	}
	start, end, flags, err := metadataSection(theirs)
	if err != nil {
		return err
	}
	if !bytes.Equal(ours[:start], theirs[:start]) || !bytes.Equal(ours[end:], theirs[end:]) {
		return fmt.Errorf("differs outside the function metadata section")
	}
	a, errA := metadataRecords(ours[start:end], flags)
	b, errB := metadataRecords(theirs[start:end], flags)
	if errA != nil || errB != nil {
		return fmt.Errorf("metadata section: %v %v", errA, errB)
	}
	sort.Strings(a)
	sort.Strings(b)
	if strings.Join(a, "|") != strings.Join(b, "|") {
		return fmt.Errorf("function metadata records differ")
	}
	return nil
}

// metadataSection finds the function metadata section (type 5) in the
// section header table: magic and version as ULEB128, the entry count and
// the entries (type, flags, offset, size) as little-endian uint64s.
func metadataSection(b []byte) (start, end int, flags uint64, err error) {
	off := 0
	for range 2 {
		for off < len(b) && b[off]&0x80 != 0 {
			off++
		}
		off++
	}
	if off+8 > len(b) {
		return 0, 0, 0, fmt.Errorf("no section header table")
	}
	n := binary.LittleEndian.Uint64(b[off:])
	for i := uint64(0); i < n && off+8+int(i+1)*32 <= len(b); i++ {
		e := b[off+8+int(i)*32:]
		typ, fl, o, size := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:]), binary.LittleEndian.Uint64(e[24:])
		if typ == 5 && o+size <= uint64(len(b)) {
			return int(o), int(o + size), fl, nil
		}
	}
	return 0, 0, 0, fmt.Errorf("no function metadata section")
}

// metadataRecords splits the section into the bytes of each top-level
// function's record (name index, checksum, attributes, callees).
func metadataRecords(b []byte, flags uint64) ([]string, error) {
	var out []string
	off := 0
	uleb := func() {
		for off < len(b) && b[off]&0x80 != 0 {
			off++
		}
		off++
	}
	var record func()
	record = func() {
		uleb() // name index
		if flags&(1<<32) != 0 {
			uleb() // checksum
		}
		if flags&(1<<33) != 0 {
			uleb() // attributes
		}
		start := off
		uleb()
		n, _ := binary.Uvarint(b[start:])
		for i := uint64(0); i < n && off < len(b); i++ {
			uleb() // line offset
			uleb() // discriminator
			record()
		}
	}
	for off < len(b) {
		start := off
		record()
		if off > len(b) {
			return nil, fmt.Errorf("truncated record at %d", start)
		}
		out = append(out, string(b[start:off]))
	}
	return out, nil
}

// TestProbeProfilesReadByLLVM: llvm-profdata-19 reads profgen's probe
// profiles (text and extbinary) and renders them as profgen's text; profgen
// show and merge --sample give what llvm-profdata-19's do on them.
func TestProbeProfilesReadByLLVM(t *testing.T) {
	needTools(t, "llvm-profdata-19")
	for _, dir := range probePrograms(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tmp := t.TempDir()
			ext, text := filepath.Join(tmp, "p.extbinary"), filepath.Join(tmp, "p.txt")
			args := []string{"--binary", filepath.Join(dir, "binary"), "--perfscript", filepath.Join(dir, "single.script"), "-q"}
			profgen(t, append(args, "-o", ext)...)
			profgen(t, append(args, "--format=text", "-o", text)...)
			want := readFile(t, text)
			for _, in := range []string{ext, text} {
				out := filepath.Join(tmp, "llvm.txt")
				run(t, "llvm-profdata-19", "merge", "--sample", "--text", "-o", out, in)
				if !bytes.Equal(readFile(t, out), want) {
					t.Errorf("llvm-profdata-19 merge --sample --text %s differs from profgen's text", filepath.Base(in))
				}
			}
			for _, c := range []struct {
				name   string
				args   []string
				stdout bool
			}{
				{"show", []string{"show", "--sample", ext}, true},
				{"show text", []string{"show", "--sample", text}, true},
				{"merge text", []string{"merge", "--sample", "--text", "-o", "{out}", ext, text}, false},
				{"merge extbinary", []string{"merge", "--sample", "--extbinary", "-o", "{out}", ext}, false},
				{"merge extbinary of text", []string{"merge", "--sample", "--extbinary", "-o", "{out}", text}, false},
				{"merge extbinary of both", []string{"merge", "--sample", "--extbinary", "-o", "{out}", text, ext}, false},
			} {
				if ours, theirs := profgenAndProfdata(t, c.args, c.stdout); !bytes.Equal(ours, theirs) {
					t.Errorf("%s: profgen differs from llvm-profdata-19", c.name)
				}
			}
		})
	}
}

// profgenAndProfdata runs `profgen ARGS` and `llvm-profdata-19 ARGS`
// ({out}: each its own output file) and returns what each produced: its
// stdout, or its output file.
func profgenAndProfdata(t *testing.T, args []string, stdout bool) (ours, theirs []byte) {
	t.Helper()
	dir := t.TempDir()
	subst := func(out string) []string {
		a := make([]string, len(args))
		for i, x := range args {
			a[i] = strings.ReplaceAll(x, "{out}", out)
		}
		return a
	}
	o, r := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs(subst(o))
	if err := cmd.Execute(); err != nil {
		t.Fatalf("profgen %v: %v", subst(o), err)
	}
	ref := exec.Command("llvm-profdata-19", subst(r)...)
	refOut, err := ref.Output()
	if err != nil {
		t.Fatalf("llvm-profdata-19 %v: %v", subst(r), err)
	}
	if stdout {
		return out.Bytes(), refOut
	}
	return readFile(t, o), readFile(t, r)
}

// TestClangUsesProbeProfile: clang-19 -fpseudo-probe-for-profiling
// -fprofile-sample-use compiles the program with profgen's extbinary
// profile of it and, asked to report profile staleness, finds every
// function's checksum and every call site matching and no sample
// discarded.
func TestClangUsesProbeProfile(t *testing.T) {
	needTools(t, "clang-19")
	staleness := regexp.MustCompile(`\((\d+)/(\d+)\) of (functions|callsites)' profile are invalid and \((\d+)/(\d+)\) of samples are discarded`)
	for _, dir := range probePrograms(t) {
		prog := filepath.Base(dir)
		if prog == "sqlite" {
			continue // a minute of CPU; the small programs say the same
		}
		t.Run(prog, func(t *testing.T) {
			tmp := t.TempDir()
			prof := filepath.Join(tmp, prog+".prof")
			profgen(t, "--binary", filepath.Join(dir, "binary"), "--perfscript", filepath.Join(dir, "single.script"), "-o", prof, "-q")
			// From the source's directory by its base name, as
			// 25-probe.sh compiled it: .__uniq. suffixes hash that name.
			cc := exec.Command("clang-19", "-O2", "-g", "-fpseudo-probe-for-profiling", "-fprofile-sample-use="+prof,
				"-mllvm", "-report-profile-staleness", "-o", filepath.Join(tmp, prog), prog+".c")
			cc.Dir = filepath.Join("..", "..", "testdata", "programs")
			out, err := cc.CombinedOutput()
			if err != nil {
				t.Fatalf("clang-19 with profgen's probe profile: %v\n%s", err, out)
			}
			reports := staleness.FindAllStringSubmatch(string(out), -1)
			if len(reports) != 2 {
				t.Fatalf("no staleness report from clang-19:\n%s", out)
			}
			for _, r := range reports {
				if r[1] != "0" || r[4] != "0" || r[2] == "0" || r[5] == "0" {
					t.Errorf("clang-19 finds the profile stale: %s", r[0])
				}
			}
		})
	}
}

// TestSameExtBinary checks the comparison itself on a probe profile:
// equal files pass, a changed checksum or count fails.
func TestSameExtBinary(t *testing.T) {
	b := readFile(t, "../../internal/sampleprof/testdata/profgen-probe.extbinary")
	if err := sameExtBinary(b, b); err != nil {
		t.Fatal(err)
	}
	start, end, _, err := metadataSection(b)
	if err != nil || end <= start {
		t.Fatalf("metadata section [%d, %d): %v", start, end, err)
	}
	for _, at := range []int{start + 1, start - 1} {
		c := bytes.Clone(b)
		c[at] ^= 1
		if sameExtBinary(c, b) == nil {
			t.Errorf("a changed byte at %d (metadata section at [%d, %d)) goes unnoticed", at, start, end)
		}
	}
}

// TestProbeSeparateDebugInfo: a probe binary stripped of its DWARF, with
// --debug-binary, gives the profile of the whole binary (the probe
// sections stay in the stripped binary, as llvm-profgen reads them).
func TestProbeSeparateDebugInfo(t *testing.T) {
	needTools(t, "objcopy", "llvm-profgen-19")
	dir := probePrograms(t)[0]
	tmp := t.TempDir()
	bin, debug := filepath.Join(tmp, "binary"), filepath.Join(tmp, "binary.debug") // the MMAP2 name
	runTool(t, "objcopy", "--only-keep-debug", filepath.Join(dir, "binary"), debug)
	runTool(t, "objcopy", "--strip-debug", filepath.Join(dir, "binary"), bin)
	script := filepath.Join(dir, "single.script")
	ours, theirs := filepath.Join(tmp, "ours.txt"), filepath.Join(tmp, "theirs.txt")
	profgen(t, "--binary", bin, "--debug-binary", debug, "--perfscript", script, "--format=text", "-q", "-o", ours)
	runTool(t, "llvm-profgen-19", "--binary", filepath.Join(dir, "binary"), "--perfscript", script, "--format=text", "-o", theirs)
	if !bytes.Equal(readFile(t, ours), readFile(t, theirs)) {
		t.Error("with --debug-binary, profgen's profile differs from llvm-profgen-19's of the whole binary")
	}
}
