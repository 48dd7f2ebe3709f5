package sampleprof

import (
	"bytes"
	"errors"
	"testing"
)

func TestFunctionsToDrop(t *testing.T) {
	tests := []struct {
		n           int
		limit, size uint64
		want        int
	}{
		{n: 10, limit: 50, size: 100, want: 7},   // keeps round(2.5) = 3, half away from zero as C's round
		{n: 100, limit: 90, size: 100, want: 19}, // keeps round(81) = 81
		{n: 3, limit: 99, size: 100, want: 1},    // keeps round(2.94) = 3: still one dropped
		{n: 1, limit: 1, size: 1000, want: 1},
		{n: 4, limit: 1, size: 1000, want: 4}, // never more than there are
	}
	for _, tt := range tests {
		if got := functionsToDrop(tt.n, tt.limit, tt.size); got != tt.want {
			t.Errorf("functionsToDrop(%d, %d, %d) = %d, want %d", tt.n, tt.limit, tt.size, got, tt.want)
		}
	}
}

func TestWriteWithSizeLimit(t *testing.T) {
	p := NewProfile()
	for i, name := range []string{"hot", "warm", "cold"} {
		f := p.Function(name)
		f.TotalSamples = uint64(300 - 100*i)
		f.HeadSamples = 1
		f.Body[LineLocation{LineOffset: 1}] = &SampleRecord{Samples: f.TotalSamples}
	}
	var whole bytes.Buffer
	if err := (WriteOptions{}).Write(&whole, p, FormatText); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (WriteOptions{}).WriteWithSizeLimit(&out, p, FormatText, uint64(whole.Len()-1)); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Functions["cold"]; ok || len(p.Functions) != 2 || out.Len() >= whole.Len() {
		t.Errorf("kept %d functions (%d bytes of %d), want the coldest dropped", len(p.Functions), out.Len(), whole.Len())
	}
	if err := (WriteOptions{}).WriteWithSizeLimit(&out, p, FormatText, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit 1: %v, want ErrTooLarge", err)
	}
}
