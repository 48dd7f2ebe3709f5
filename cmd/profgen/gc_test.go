package main

import (
	"testing"

	"github.com/profgen/profgen/internal/driver"
)

func TestConversionGCPercent(t *testing.T) {
	tests := []struct {
		format string
		want   int
	}{
		{"pprof", callStackGCPercent},
		{"text", gcPercent},
		{"extbinary", gcPercent},
		{"", gcPercent},
	}
	for _, tt := range tests {
		if got := conversionGCPercent(driver.Options{Format: tt.format}); got != tt.want {
			t.Errorf("--format=%q: %d, want %d", tt.format, got, tt.want)
		}
	}
}
