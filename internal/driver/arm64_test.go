package driver

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

// The AArch64 traces of scripts/testdata.d/80-arm64.sh (tools/lbrgen under
// qemu-aarch64): $PROFGEN_TESTDATA/arm64/<prog>/binary, single.script,
// multi.script and fork.script with their per-process scripts (BRBE
// branch stacks), stack.script (call stacks of 4 processes), each also as
// perf.data.

// arm64Dirs returns the program directories holding file.
func arm64Dirs(t *testing.T, file string) []string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(testutil.DataDir(t, "arm64"), "*", file))
	if len(found) == 0 {
		t.Skipf("no AArch64 traces (%s) under $PROFGEN_TESTDATA/arm64", file)
	}
	for i, f := range found {
		found[i] = filepath.Dir(f)
	}
	return found
}

// TestARM64LBRMatchesLLVM: one process of BRBE branch stacks gives
// llvm-profgen-19's bytes, unsymbolized, as text and extbinary, and the
// text profile's function totals are what the trace executed: 4 bytes
// for every instruction of every range between two taken branches.
func TestARM64LBRMatchesLLVM(t *testing.T) {
	for _, dir := range arm64Dirs(t, "single.script") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "single.script")
			got, summary := profgen(t, bin, script, nil)
			if want := llvmProfgen(t, bin, script); !bytes.Equal(got, want) {
				t.Errorf("--skip-symbolization differs from llvm-profgen-19 (%d vs %d bytes)\n%s", len(got), len(want), summary)
			}
			text := profgenProfile(t, bin, script, "text")
			if want := runLLVMProfgen(t, "--perfscript", script, "--binary", bin, "--format=text"); !bytes.Equal(text, want) {
				t.Errorf("--format=text differs from llvm-profgen-19 (%d vs %d bytes)", len(text), len(want))
			}
			ext := profgenProfile(t, bin, script, "extbinary")
			if want := runLLVMProfgen(t, "--perfscript", script, "--binary", bin, "--format=extbinary"); !bytes.Equal(ext, want) {
				t.Errorf("--format=extbinary differs from llvm-profgen-19 (%d vs %d bytes)", len(ext), len(want))
			}
			checkTotalsAgainstTrace(t, bin, script, text)
		})
	}
}

// TestARM64ProcessesEqualSum: 4 concurrent processes at different bases,
// and a process with two forked children, give the sum of llvm-profgen-19
// on each process alone, unsymbolized and as a text profile.
func TestARM64ProcessesEqualSum(t *testing.T) {
	for _, dir := range arm64Dirs(t, "multi.script") {
		for _, kind := range []string{"multi", "fork"} {
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				bin, combined := filepath.Join(dir, "binary"), filepath.Join(dir, kind+".script")
				each, _ := filepath.Glob(filepath.Join(dir, kind+".*.script"))
				if kind == "multi" && len(each) != 4 {
					t.Fatalf("%d per-process scripts, want 4", len(each))
				}
				got, summary := profgen(t, bin, combined, nil)
				sum := sumLLVM(t, bin, each)
				if !bytes.Equal(got, sum) {
					t.Errorf("differs from the sum of llvm-profgen-19 on %d processes (%d vs %d bytes)\n%s", len(each), len(got), len(sum), summary)
				}
				sumPath := filepath.Join(t.TempDir(), "sum.raw")
				if err := os.WriteFile(sumPath, sum, 0o644); err != nil {
					t.Fatal(err)
				}
				text := profgenProfile(t, bin, combined, "text")
				want := runLLVMProfgen(t, "--unsymbolized-profile", sumPath, "--binary", bin, "--format=text")
				if !bytes.Equal(text, want) {
					t.Errorf("text differs from llvm-profgen-19 on the per-process sum (%d vs %d bytes)", len(text), len(want))
				}
			})
		}
	}
}

// TestARM64PerfDataEqualsScript: the perf.data of every layout, read
// through perf script, gives what the text gives.
func TestARM64PerfDataEqualsScript(t *testing.T) {
	testutil.Tool(t, "perf")
	for _, dir := range arm64Dirs(t, "stack.script") {
		for _, kind := range []string{"single", "multi", "fork", "stack"} {
			data := filepath.Join(dir, kind+".perf.data")
			if _, err := os.Stat(data); err != nil {
				continue
			}
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				bin := filepath.Join(dir, "binary")
				opts := Options{Binaries: []string{bin}, Format: "text", SkipSymbolization: kind != "stack"}
				opts.PerfScript = filepath.Join(dir, kind+".script")
				want := convert(t, opts)
				opts.PerfScript, opts.PerfData = "", data
				if got := convert(t, opts); !bytes.Equal(got, want) {
					t.Errorf("--perfdata differs from --perfscript (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestARM64CallStackFlatCounts: the pprof profile of exact call stacks
// gives every function of the binary the samples whose IP the trace put
// in it (flat counts; a location's function is its outermost frame, the
// ELF function holding the address). For the non-PIE Go binary (text at
// 0x10000) perf's DSO-relative frames lie inside the binary's own address
// range: read as link addresses they would land 0x10000 too low. Go's
// wrappers are kept (--no-fold-wrappers): folded, as Go's profiler does,
// their self time goes to their callers, which the trace does not know.
func TestARM64CallStackFlatCounts(t *testing.T) {
	for _, dir := range arm64Dirs(t, "stack.script") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "stack.script")
			want := traceLeafCounts(t, bin, script)
			p, err := profile.Parse(bytes.NewReader(convert(t, Options{PerfScript: script, Binaries: []string{bin}, Format: "pprof", NoFoldWrappers: true})))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for _, s := range p.Sample {
				if lines := s.Location[0].Line; len(lines) > 0 {
					got[lines[len(lines)-1].Function.Name] += s.Value[0]
				}
			}
			var n int64
			for fn, c := range want {
				n += c
				if got[fn] != c {
					t.Errorf("%s: %d samples in pprof, the trace has %d", fn, got[fn], c)
				}
			}
			t.Logf("%d functions, %d samples compared", len(want), n)
		})
	}
}

// TestARM64CallStackClang: the LLVM text profile of call stacks is read by
// clang-19 for AArch64: the IR carries the sample profile summary and entry
// counts.
func TestARM64CallStackClang(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	sources := map[string]string{"wordfreq": "wordfreq.c", "sqlite": "sqlbench.c"}
	for _, dir := range arm64Dirs(t, "stack.script") {
		src, ok := sources[filepath.Base(dir)]
		if !ok {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			bin := filepath.Join(dir, "binary")
			prof := filepath.Join(t.TempDir(), "prof.txt")
			text := convert(t, Options{PerfScript: filepath.Join(dir, "stack.script"), Binaries: []string{bin}, Format: "text"})
			if err := os.WriteFile(prof, text, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--target=aarch64-linux-gnu", "-O2", "-g", "-fdebug-info-for-profiling",
				"-fprofile-sample-use=" + prof, "-S", "-emit-llvm", "-o", "-", filepath.Join("..", "..", "testdata", "programs", src)}
			if src == "sqlbench.c" {
				args = append(args, "-I", filepath.Join(dir, "..", ".cache", "sqlite3"))
			}
			cmd := exec.Command(clang, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			ir, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.Bytes())
			}
			for _, want := range []string{`!"ProfileFormat", !"SampleProfile"`, `!"function_entry_count", i64 `} {
				if !bytes.Contains(ir, []byte(want)) {
					t.Errorf("IR lacks %s", want)
				}
			}
		})
	}
}

// TestARM64GoPGO: go build -pgo for GOARCH=arm64 with profgen's pprof of
// the Go program's call stacks finds the hot interface call's callee.
func TestARM64GoPGO(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilds the Go runtime for arm64")
	}
	goTool := testutil.Tool(t, "go")
	for _, dir := range arm64Dirs(t, "stack.script") {
		if filepath.Base(dir) != "goarm64" {
			continue
		}
		bin := filepath.Join(dir, "binary")
		prof := filepath.Join(t.TempDir(), "goarm64.pprof")
		data := convert(t, Options{PerfScript: filepath.Join(dir, "stack.script"), Binaries: []string{bin}, Format: "pprof"})
		if err := os.WriteFile(prof, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "goexample"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(goTool, "build", "-C", src, "-tags", "qemu", "-a", "-pgo="+prof, "-gcflags=-d=pgodebug=2",
			"-o", filepath.Join(t.TempDir(), "goarm64.pgo"), ".")
		cmd.Env = append(os.Environ(), "GOARCH=arm64", "GOOS=linux", "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go build -pgo: %v\n%s", err, out)
		}
		if !bytes.Contains(out, []byte("hottest callee main.rect.area")) {
			t.Errorf("go build -pgo found no hot callee main.rect.area:\n%s", firstLines(out, 20))
		}
		return
	}
	t.Skip("no goarm64 trace")
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// traceBinary reads what the trace checks need of the binary: its
// function symbols and program headers (file offset -> address).
type traceBinary struct {
	funcs []elf.Symbol
	progs []*elf.Prog
}

func openTraceBinary(t *testing.T, path string) *traceBinary {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	tb := &traceBinary{progs: f.Progs}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 {
			tb.funcs = append(tb.funcs, s)
		}
	}
	sort.Slice(tb.funcs, func(i, j int) bool { return tb.funcs[i].Value < tb.funcs[j].Value })
	return tb
}

// funcAt names the function symbol holding vaddr, "" if none.
func (tb *traceBinary) funcAt(vaddr uint64) string {
	i := sort.Search(len(tb.funcs), func(i int) bool { return tb.funcs[i].Value > vaddr })
	if i > 0 && vaddr < tb.funcs[i-1].Value+tb.funcs[i-1].Size {
		return tb.funcs[i-1].Name
	}
	return ""
}

// vaddrOfOffset maps a file offset in a PT_LOAD to its address.
func (tb *traceBinary) vaddrOfOffset(off uint64) (uint64, bool) {
	for _, p := range tb.progs {
		if p.Type == elf.PT_LOAD && off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

// traceLeafCounts counts the samples of a call-stack script per function
// of the binary holding the leaf frame (perf prints it DSO-relative).
func traceLeafCounts(t *testing.T, bin, script string) map[string]int64 {
	t.Helper()
	tb := openTraceBinary(t, bin)
	counts := map[string]int64{}
	leaf := false
	eachScriptLine(t, script, func(line string) {
		switch {
		case strings.HasSuffix(line, "cycles:u: "):
			leaf = true
		case leaf && strings.HasPrefix(line, "\t"):
			leaf = false
			fields := strings.Fields(line)
			dso := strings.Trim(fields[len(fields)-1], "()")
			if filepath.Base(dso) != "binary" {
				return
			}
			rel, _ := strconv.ParseUint(fields[0], 16, 64)
			if v, ok := tb.vaddrOfOffset(rel); ok {
				if fn := tb.funcAt(v); fn != "" {
					counts[strings.TrimSuffix(fn, ".abi0")]++ // Go's ELF name of an assembly function; DWARF's lacks the ABI
				}
			}
		}
	})
	return counts
}

// eachScriptLine calls fn with every line of a perf script file.
func eachScriptLine(t *testing.T, path string, fn func(line string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fn(sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// checkTotalsAgainstTrace compares the top-level function totals of an
// LLVM text profile with the trace: every range between two consecutive
// taken branches of a sample (older target .. newer source, both in the
// binary) ran all its instructions, 4 bytes each, counted in the function
// holding each one.
func checkTotalsAgainstTrace(t *testing.T, bin, script string, text []byte) {
	t.Helper()
	want := traceRangeBytes(t, bin, script)
	got := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		f := strings.Split(line, ":")
		n, _ := strconv.ParseUint(f[1], 10, 64)
		got[f[0]] = n
	}
	for fn, n := range got {
		if want[fn] != n {
			t.Errorf("%s: total %d in the profile, %d bytes ran in the trace", fn, n, want[fn])
		}
	}
	var missing []string
	for fn, n := range want {
		if _, ok := got[fn]; !ok && n > 0 {
			missing = append(missing, fn)
		}
	}
	sort.Strings(missing)
	t.Logf("%d functions compared with the trace; ran but not in the profile (no debug info): %v", len(got), missing)
}

// traceRangeBytes reads a single-process LBR script: its binary's MMAP2,
// then samples of "0xFROM/0xTO/..." entries, newest first.
func traceRangeBytes(t *testing.T, bin, script string) map[string]uint64 {
	t.Helper()
	tb := openTraceBinary(t, bin)
	var maps []mmapOfBinary
	bytesOf := map[string]uint64{}
	eachScriptLine(t, script, func(line string) {
		if strings.Contains(line, "PERF_RECORD_MMAP2") {
			if m, ok := parseBinaryMmap2(line); ok {
				maps = append(maps, m)
			}
			return
		}
		var from, to []uint64
		for _, e := range strings.Fields(line) {
			parts := strings.Split(e, "/")
			if len(parts) < 3 || !strings.HasPrefix(parts[0], "0x") {
				continue
			}
			a, _ := strconv.ParseUint(parts[0][2:], 16, 64)
			b, _ := strconv.ParseUint(parts[1][2:], 16, 64)
			from, to = append(from, a), append(to, b)
		}
		for i := 0; i+1 < len(from); i++ {
			start, ok1 := toVaddr(tb, maps, to[i+1])
			end, ok2 := toVaddr(tb, maps, from[i])
			if !ok1 || !ok2 || start > end {
				continue
			}
			for a := start; a <= end; a += 4 {
				bytesOf[tb.funcAt(a)] += 4
			}
		}
	})
	return bytesOf
}

// mmapOfBinary is an executable mapping of the profiled binary.
type mmapOfBinary struct{ addr, length, pgoff uint64 }

// parseBinaryMmap2 reads "PERF_RECORD_MMAP2 p/t: [0xADDR(0xLEN) @ PGOFF ...]: r-xp .../binary".
func parseBinaryMmap2(line string) (mmapOfBinary, bool) {
	if !strings.HasSuffix(line, "/binary") {
		return mmapOfBinary{}, false
	}
	i := strings.Index(line, "[")
	f := strings.Fields(strings.NewReplacer("(", " ", ")", " ", "@", " ").Replace(line[i+1:]))
	addr, err1 := strconv.ParseUint(f[0], 0, 64)
	length, err2 := strconv.ParseUint(f[1], 0, 64)
	pgoff, err3 := strconv.ParseUint(f[2], 0, 64)
	return mmapOfBinary{addr, length, pgoff}, err1 == nil && err2 == nil && err3 == nil
}

func toVaddr(tb *traceBinary, maps []mmapOfBinary, a uint64) (uint64, bool) {
	for _, m := range maps {
		if a >= m.addr && a < m.addr+m.length {
			return tb.vaddrOfOffset(a - m.addr + m.pgoff)
		}
	}
	return 0, false
}
