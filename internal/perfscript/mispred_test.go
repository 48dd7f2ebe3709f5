package perfscript

import (
	"slices"
	"strings"
	"testing"
)

// TestMispredicted: the M flag of each brstack entry, in every flag
// layout perf prints, and with a DSO after an address. Mispredicted ends
// at the last mispredicted entry (record.Sample.MarkMispredicted).
func TestMispredicted(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []bool
	}{
		{"plain", " 401139 0x40111f/0x401139/P/-/-/0  0x401114/0x40111c/M/-/-/0", []bool{false, true}},
		{"typed", " 401139 0x40111f/0x401139/M/-/-/12/COND/-  0x401114/0x40111c/P/-/-/3/CALL/-", []bool{true}},
		{"no bit", " 401139 0x40111f/0x401139/-/-/-/0", nil},
		{"dso", " 401139 0x40111f(/bin/x)/0x401139(/bin/x)/M/-/-/0", []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScanner(strings.NewReader(tc.line+"\n"), "t")
			if !s.Next() {
				t.Fatalf("no record: %v", s.Err())
			}
			smp := s.Record().Sample
			if got := smp.Mispredicted; !slices.Equal(got, tc.want) || len(smp.Branches) < len(tc.want) {
				t.Errorf("Mispredicted = %v, want %v (%d branches)", got, tc.want, len(smp.Branches))
			}
		})
	}
}
