package binary

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// listingDiff is how a listing compares with llvm-profgen-19's.
type listingDiff struct {
	insts, sameText int            // instruction lines at the same address, and those with llvm's text
	textDiffs       map[string]int // "llvm's text  |  ours" -> count
	boundary        []string       // addresses only one listing has (the decoder out of step)
	lineErrs        []string       // other lines that differ
}

func (d *listingDiff) percent() float64 {
	if d.insts == 0 {
		return 100
	}
	return 100 * float64(d.sameText) / float64(d.insts)
}

// compareListings compares two listings, streamed: every line but an
// instruction's text must be llvm's. Between two other lines, the
// instruction lines are compared by address; an address only one of them
// lists is a boundary difference. Instruction lines past the end of their
// section (llvm-profgen decodes beyond it) are left out of llvm's
// listing. location, when set, is profgen's source location of an
// address: an instruction line is then its text, padding and that
// location, and a differing text makes the lines differ only where the
// text and padding are.
func compareListings(got, want io.Reader, location func(uint64) string) (*listingDiff, error) {
	d := &listingDiff{textDiffs: map[string]int{}}
	gs, ws := testutil.NewDisasmScanner(got), testutil.NewDisasmScanner(want)
	for n := 1; ; n++ {
		gb, gl, gok := readBlock(gs)
		wb, wl, wok := readBlock(ws)
		d.compareBlock(gb, wb, location)
		if !gok || !wok {
			if gok != wok {
				d.lineErrs = append(d.lineErrs, fmt.Sprintf("block %d: one listing ends before the other (ours %v)", n, gok))
			}
			break
		}
		if gl.Line != wl.Line {
			d.lineErrs = append(d.lineErrs, fmt.Sprintf("%q, llvm-profgen-19 %q", gl.Line, wl.Line))
		}
	}
	if err := gs.Err(); err != nil {
		return nil, err
	}
	return d, ws.Err()
}

// readBlock reads instruction lines (but those past their section's end)
// up to the next other line; ok is false at the end.
func readBlock(s *testutil.DisasmScanner) (insts []testutil.DisasmLine, other testutil.DisasmLine, ok bool) {
	for s.Next() {
		l := s.Line()
		switch {
		case !l.Inst:
			return insts, l, true
		case !l.PastSection():
			insts = append(insts, l)
		}
	}
	return insts, testutil.DisasmLine{}, false
}

func (d *listingDiff) compareBlock(got, want []testutil.DisasmLine, location func(uint64) string) {
	byAddr := make(map[uint64]testutil.DisasmLine, len(want))
	for _, w := range want {
		byAddr[w.Addr] = w
	}
	for _, g := range got {
		w, ok := byAddr[g.Addr]
		if !ok {
			d.boundary = append(d.boundary, fmt.Sprintf("%#x only in ours: %q", g.Addr, g.Line))
			continue
		}
		delete(byAddr, g.Addr)
		d.insts++
		gt, wt := g.Rest, w.Rest
		if location != nil {
			loc := location(g.Addr)
			if !strings.HasSuffix(gt, loc) || !strings.HasSuffix(wt, loc) {
				d.lineErrs = append(d.lineErrs, fmt.Sprintf("location of %q, llvm-profgen-19 %q", g.Line, w.Line))
				continue
			}
			gt, wt = strings.TrimRight(gt[:len(gt)-len(loc)], " "), strings.TrimRight(wt[:len(wt)-len(loc)], " ")
		}
		if gt == wt {
			d.sameText++
		} else {
			d.textDiffs[wt+"  |  "+gt]++
		}
	}
	for _, w := range want {
		if _, ok := byAddr[w.Addr]; ok {
			d.boundary = append(d.boundary, fmt.Sprintf("%#x only in llvm-profgen-19's: %q", w.Addr, w.Line))
		}
	}
}

// report logs the differences: line errors fail the test, text
// differences are logged (the most frequent first) with
// PROFGEN_SHOW_TEXT_DIFFS set.
func (d *listingDiff) report(t *testing.T) {
	t.Helper()
	for i, e := range d.lineErrs {
		if i == 10 {
			t.Errorf("... %d lines differ", len(d.lineErrs))
			break
		}
		t.Error(e)
	}
	if len(d.boundary) > 0 {
		t.Logf("%d addresses listed by one side only (the decoder out of step with LLVM's), for example %s", len(d.boundary), d.boundary[0])
	}
	t.Logf("%d instructions, %d (%.2f%%) printed as the reference prints them", d.insts, d.sameText, d.percent())
	if n := os.Getenv("PROFGEN_SHOW_TEXT_DIFFS"); n != "" {
		keys := make([]string, 0, len(d.textDiffs))
		for k := range d.textDiffs {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return d.textDiffs[keys[i]] > d.textDiffs[keys[j]] })
		for i, k := range keys {
			if i == 40 {
				break
			}
			t.Logf("%6d  %q", d.textDiffs[k], k)
		}
	}
}

// compareWithProfgen compares the listing of f with tool's (an
// llvm-profgen) of the same file, both streamed; opts.IntelSyntax asks
// both for Intel syntax.
func compareWithProfgen(t *testing.T, tool string, f *File, opts ListingOptions) *listingDiff {
	t.Helper()
	args := []string{"--show-disassembly-only", "--binary", f.Path(), "--output", os.DevNull}
	if opts.IntelSyntax {
		args = append(args, "--x86-asm-syntax=intel")
	}
	cmd := exec.Command(tool, args...)
	want, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got, w := io.Pipe()
	go func() {
		_, err := f.WriteListing(w, opts)
		w.CloseWithError(err)
	}()
	d, err := compareListings(got, want, nil)
	got.Close()
	io.Copy(io.Discard, want)
	if werr := cmd.Wait(); werr != nil {
		t.Fatalf("%s: %v", tool, werr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// listingBinaries are the binaries whose listings are compared: the
// reference binaries and (but with -short) every other executable with a
// symbol table in the test data (the LBR, probe, instrumentation,
// call-stack, non-PIE and AArch64 programs), by name relative to the test
// data.
func listingBinaries(t *testing.T) map[string]string {
	out := map[string]string{}
	dir, ok := testutil.OptionalDataDir()
	seen := map[string]bool{}
	for _, p := range referenceBinaries(t) {
		name := filepath.Base(p)
		if rel, err := filepath.Rel(dir, p); ok && err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		out[name], seen[name] = p, true
	}
	if !ok || testing.Short() {
		return out
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*"))
	for _, p := range append(paths, more...) {
		rel, _ := filepath.Rel(dir, p)
		if seen[rel] || strings.Contains(rel, ".cache") || !isExecutable(p) {
			continue
		}
		if f, err := Open(p, Options{}); err == nil {
			if f.ELF().Section(".symtab") != nil {
				out[rel] = p
			}
			f.Close()
		}
	}
	return out
}

// isExecutable reports an ELF executable or shared object.
func isExecutable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [18]byte
	if n, _ := f.Read(h[:]); n < len(h) || string(h[:4]) != "\x7fELF" {
		return false
	}
	return h[16] == 2 || h[16] == 3 // ET_EXEC, ET_DYN
}

// textFloors are the shares of instructions (in percent) whose text was
// measured identical to llvm-profgen-19's, per binary; a binary not named
// here must reach defaultTextFloor. Every other line (headers, addresses,
// which instructions, <unknown>) must be identical everywhere.
var textFloors = map[string]float64{
	"arm64-tricky.elf": 96.6, // smstart decoded, SVE and friends <unknown>: 58 of 60
}

const defaultTextFloor = 99.9

// boundaryDiffs are the addresses, per binary, that one listing has and
// the other not: where the decoder falls out of step with LLVM's in data
// embedded in code (see the package comment). None elsewhere.
var boundaryDiffs = map[string]int{
	"nonpie/nonpiego": 2, // c5 9c f9 11 in Go's assembly data: LLVM rejects the VEX psubw without 66
}

func TestListingMatchesProfgen(t *testing.T) {
	checkListings(t, testutil.Tool(t, "llvm-profgen-19"), ListingOptions{}, textFloors)
}

// TestIntelListingMatchesProfgen22: the listings in Intel syntax
// (--x86-asm-syntax=intel) against llvm-profgen-22's, held to the same
// floors as the AT&T ones.
func TestIntelListingMatchesProfgen22(t *testing.T) {
	checkListings(t, testutil.Tool(t, "llvm-profgen-22"), ListingOptions{IntelSyntax: true}, intelTextFloors)
}

// intelTextFloors are textFloors for Intel syntax.
var intelTextFloors = map[string]float64{
	"arm64-tricky.elf": textFloors["arm64-tricky.elf"], // one syntax on AArch64
}

// checkListings compares the listings of every listing binary with
// tool's: no line but instruction texts may differ, and the share of
// those printed as tool prints them must reach the binary's floor.
func checkListings(t *testing.T, tool string, opts ListingOptions, floors map[string]float64) {
	bins := listingBinaries(t)
	names := make([]string, 0, len(bins))
	for name := range bins {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := bins[name]
		t.Run(name, func(t *testing.T) {
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			d := compareWithProfgen(t, tool, f, opts)
			d.report(t)
			if n := boundaryDiffs[name]; len(d.boundary) > n {
				t.Errorf("%d addresses listed by one side only, %d known", len(d.boundary), n)
			}
			floor, ok := floors[name]
			if !ok {
				floor = defaultTextFloor
			}
			if d.percent() < floor {
				t.Errorf("%.2f%% of the instructions printed as %s prints them, below the %.2f%% measured", d.percent(), tool, floor)
			}
		})
	}
}
