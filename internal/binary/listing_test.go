package binary

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// listingDiff is how a listing compares with llvm-profgen-19's.
type listingDiff struct {
	insts, sameText int            // instruction lines, and those with llvm's text
	textDiffs       map[string]int // "llvm's text | ours" -> count
	lineErrs        []string       // lines that differ other than by an instruction's text
}

func (d *listingDiff) percent() float64 {
	if d.insts == 0 {
		return 100
	}
	return 100 * float64(d.sameText) / float64(d.insts)
}

// compareListings compares line by line: every line but an instruction's
// text must be llvm's. Instruction lines past the end of their section
// (llvm-profgen decodes beyond it) are left out of llvm's listing.
// location, when set, is profgen's source location of an address: an
// instruction line is then its text, padding and that location, and a
// differing text makes llvm's line differ only where the text and
// padding are.
func compareListings(got, want []testutil.DisasmLine, location func(uint64) string) *listingDiff {
	d := &listingDiff{textDiffs: map[string]int{}}
	kept := want[:0:0]
	for _, l := range want {
		if !l.PastSection() {
			kept = append(kept, l)
		}
	}
	want = kept
	for i := 0; i < max(len(got), len(want)); i++ {
		if i >= len(got) || i >= len(want) {
			d.lineErrs = append(d.lineErrs, fmt.Sprintf("line %d: %d lines, llvm-profgen-19 %d", i+1, len(got), len(want)))
			break
		}
		g, w := got[i], want[i]
		if !w.Inst || !g.Inst || g.Addr != w.Addr {
			if g.Line != w.Line {
				d.lineErrs = append(d.lineErrs, fmt.Sprintf("line %d: %q, llvm-profgen-19 %q", i+1, g.Line, w.Line))
			}
			continue
		}
		d.insts++
		gt, wt := g.Rest, w.Rest
		if location != nil {
			loc := location(g.Addr)
			if !strings.HasSuffix(gt, loc) || !strings.HasSuffix(wt, loc) {
				d.lineErrs = append(d.lineErrs, fmt.Sprintf("line %d: location of %q, llvm-profgen-19 %q", i+1, g.Line, w.Line))
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
	return d
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
	t.Logf("%d instructions, %d (%.2f%%) printed as llvm-profgen-19 prints them", d.insts, d.sameText, d.percent())
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

func ourListing(t *testing.T, f *File, opts ListingOptions) []testutil.DisasmLine {
	t.Helper()
	var buf bytes.Buffer
	if err := f.WriteListing(&buf, opts); err != nil {
		t.Fatal(err)
	}
	lines, err := testutil.ParseDisassembly(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestListingMatchesProfgen(t *testing.T) {
	tool := testutil.Tool(t, "llvm-profgen-19")
	for _, path := range referenceBinaries(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			d := compareListings(ourListing(t, f, ListingOptions{}), profgenListing(t, tool, path), nil)
			d.report(t)
		})
	}
}
