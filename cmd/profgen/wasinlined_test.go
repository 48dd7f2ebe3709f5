package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestContextWasInlinedFromAnySample: a context some of whose samples ran
// in inlined code and others in an out-of-line copy (half-inline.c: the two
// calls of one line, one inlined) is marked ContextWasInlined
// (!Attributes: 1) by profgen from any of them. llvm-profgen keeps the
// mark of the first address context its hash maps hand it, so the first 10
// samples of the trace give no mark and the first 20 give one; with
// --csspgo-replay-preinline that decides whether the pre-inliner inlines
// the call. Otherwise the profiles are equal (docs/csspgo.md: deliberate
// differences).
func TestContextWasInlinedFromAnySample(t *testing.T) {
	for _, ref := range []string{"llvm-profgen-22", "llvm-profgen-19"} {
		for _, tt := range []struct {
			script    string
			llvmMarks bool
		}{{"half-inline-10.script", false}, {"half-inline-20.script", true}} {
			t.Run(ref+"/"+tt.script, func(t *testing.T) {
				testutil.Tool(t, ref)
				ours, theirs := flatCSText(t, ref, tt.script)
				if !strings.Contains(ours, wasInlinedMark) {
					t.Errorf("profgen did not mark the context inlined:\n%s", ours)
				}
				if got := strings.Contains(theirs, wasInlinedMark); got != tt.llvmMarks {
					t.Errorf("%s marks the context: %v, want %v (the input no longer shows the difference)", ref, got, tt.llvmMarks)
				}
				if a, b := withoutWasInlined(ours), withoutWasInlined(theirs); a != b {
					t.Errorf("the profiles differ in more than the mark:\n%s\n--- %s:\n%s", a, ref, b)
				}
			})
		}
	}
}

const wasInlinedMark = " !Attributes: 1\n"

// flatCSText runs profgen and ref on half-inline.bin and script for a flat
// text CS profile without the pre-inliner, and returns both outputs.
func flatCSText(t *testing.T, ref, script string) (ours, theirs string) {
	t.Helper()
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"--binary=testdata/parity/half-inline.bin", "--perfscript=testdata/parity/" + script,
			"--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--format=text", "-o", out}
	}
	oPath, lPath := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
	if _, stderr, err := runInProcess(args(oPath)); err != nil {
		t.Fatalf("profgen: %v\n%s", err, stderr)
	}
	if _, stderr, err := runRef(ref, args(lPath)); err != nil {
		t.Fatalf("%s: %v\n%s", ref, err, stderr)
	}
	return string(readFile(t, oPath)), string(readFile(t, lPath))
}

// withoutWasInlined is a text profile without its ContextWasInlined lines.
func withoutWasInlined(text string) string {
	return strings.ReplaceAll(text, wasInlinedMark, "")
}
