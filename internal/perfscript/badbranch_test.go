package perfscript

import (
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/record"
)

// TestBadBranchLine: a malformed brstack entry keeps the entries before it
// and names its line, quoting at most MaxQuotedBytes of it.
func TestBadBranchLine(t *testing.T) {
	long := " 401139 0x40111f/0x401139/P/-/-/0 bad" + strings.Repeat(" 0x401114/0x40111c/P/-/-/0", 100)
	in := " 401139 0x40111f/0x401139/P/-/-/0\n" + long + "\n"
	s := NewScanner(strings.NewReader(in), "t")
	var got []record.Sample
	for s.Next() {
		smp := s.Record().Sample
		smp.Branches = append([]record.Branch(nil), smp.Branches...)
		got = append(got, smp)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].BadBranch || !got[1].BadBranch {
		t.Fatalf("samples %+v", got)
	}
	b := got[1]
	if b.BadBranchLine != 2 || b.BadBranchText != long[:MaxQuotedBytes] || len(b.Branches) != 1 {
		t.Errorf("bad line %d %q, %d branches", b.BadBranchLine, b.BadBranchText, len(b.Branches))
	}
}
