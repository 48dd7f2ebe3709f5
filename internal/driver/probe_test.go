package driver

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestWarnLineBasedProbes: a call-stack profile of a probe binary is
// line-based; profgen says so, unless --use-dwarf-correlation asked for it,
// and says nothing for a binary without probes.
func TestWarnLineBasedProbes(t *testing.T) {
	for _, tt := range []struct {
		binary string
		dwarf  bool
		warn   bool
	}{
		{"../binary/pseudoprobe/testdata/probe.elf", false, true},
		{"../binary/pseudoprobe/testdata/probe.elf", true, false},
		{"../binary/testdata/clang-pie.elf", false, false},
	} {
		var stderr bytes.Buffer
		opts := Options{Binaries: []string{tt.binary}, Format: "pprof", UseDwarfCorrelation: tt.dwarf, Stderr: &stderr}
		p := newPlan(opts)
		bins, err := openBinaries(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		warnLineBasedProbes(p, bins)
		bins.Close()
		if got := strings.Contains(stderr.String(), "has pseudo probes"); got != tt.warn {
			t.Errorf("%s, --use-dwarf-correlation=%v: warned %v, want %v", tt.binary, tt.dwarf, got, tt.warn)
		}
	}
}
