package contprof

import (
	"fmt"
	"strings"

	"github.com/profgen/profgen/internal/quote"
)

// DefaultSampleTypes are the sample types read by default, in order of
// preference: CPU samples (Go's runtime/pprof and perf_to_profile write
// samples/count, the OpenTelemetry eBPF profiler samples/count with a
// cpu period), else CPU time.
var DefaultSampleTypes = []string{"samples/count", "cpu/nanoseconds"}

// valueType is a sample type: what a value counts, in what unit.
type valueType struct{ Type, Unit string }

func (v valueType) String() string { return v.Type + "/" + v.Unit }

// matches reports whether v is the sample type asked for: "type/unit" or
// "type".
func (v valueType) matches(want string) bool {
	return want == v.String() || want == v.Type
}

// chooseSampleType returns the index in types of the sample type to read,
// or an error listing the profile's types.
func chooseSampleType(types []valueType, want string) (int, error) {
	wants := DefaultSampleTypes
	if want != "" {
		wants = []string{want}
	}
	for _, w := range wants {
		for i, t := range types {
			if t.matches(w) {
				return i, nil
			}
		}
	}
	if want == "" {
		return -1, fmt.Errorf("no CPU sample type (%s) among the profile's %s: an allocation or off-CPU profile gives no PGO profile",
			strings.Join(DefaultSampleTypes, ", "), typeList(types))
	}
	return -1, fmt.Errorf("no sample type %s among the profile's %s", want, typeList(types))
}

func typeList(types []valueType) string {
	if len(types) == 0 {
		return "none"
	}
	s := make([]string, len(types))
	for i, t := range types {
		s[i] = quote.String(t.String())
	}
	return strings.Join(s, ", ")
}

// weigher turns a sample's value into a weight in samples: a count is one,
// a time in nanoseconds is divided by the sampling period when the period
// is of that unit (rounded to the nearest).
type weigher struct{ period uint64 }

func newWeigher(t valueType, period valueType, every int64) weigher {
	if t.Unit == "nanoseconds" && period.Unit == "nanoseconds" && every > 0 {
		return weigher{uint64(every)}
	}
	return weigher{1}
}

func (w weigher) weight(v int64) uint64 {
	if v <= 0 {
		return 0
	}
	return (uint64(v) + w.period/2) / w.period
}
