package sampleprof

import "testing"

func densityProfile() *Profile {
	p := NewProfile()
	hot := p.Function("hot") // 300 samples in 3 records (one inlined): 100
	hot.Record(LineLocation{1, 0}).Samples = 100
	hot.Record(LineLocation{2, 0}).Samples = 100
	hot.Inlinee(LineLocation{3, 0}, "callee").Record(LineLocation{1, 0}).Samples = 100
	warm := p.Function("warm") // 20 samples in 2 records: 10
	warm.Record(LineLocation{1, 0}).Samples = 15
	warm.Record(LineLocation{2, 0}).Samples = 5
	p.Function("empty") // no records: left out
	return p
}

// TestDensity: functions are taken from the densest until they hold the
// cutoff's share of all body samples; the density is the last one's.
func TestDensity(t *testing.T) {
	tests := []struct {
		cutoff int
		want   float64
	}{
		{990000, 10},  // 99% of 320 needs warm too
		{900000, 100}, // 288 of 320: hot alone is enough
		{0, 0},
	}
	for _, tt := range tests {
		if got := Density(densityProfile(), tt.cutoff); got != tt.want {
			t.Errorf("cutoff %d: density %v, want %v", tt.cutoff, got, tt.want)
		}
	}
	if got := Density(NewProfile(), 990000); got != 0 {
		t.Errorf("empty profile: density %v", got)
	}
}

func TestUpdateTotalSamples(t *testing.T) {
	p := densityProfile()
	hot := p.Functions["hot"]
	hot.TotalSamples = 7
	hot.Inlinee(LineLocation{3, 0}, "callee").TotalSamples = 1
	UpdateTotalSamples(hot)
	if hot.TotalSamples != 300 || hot.Callsites[LineLocation{3, 0}]["callee"].TotalSamples != 100 {
		t.Errorf("totals %d and %d, want 300 and 100", hot.TotalSamples, hot.Callsites[LineLocation{3, 0}]["callee"].TotalSamples)
	}
}
