package contprof

import (
	"fmt"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/quote"
)

// defaultTypes are the sample types read by default, in order of
// preference: CPU samples (Go's runtime/pprof writes samples/count, and so
// does the OpenTelemetry eBPF profiler, with a cpu/nanoseconds period;
// perf_to_profile writes EVENT_sample/count and EVENT_event/count for each
// perf event), else CPU time.
var defaultTypes = []struct {
	name  string
	match func(valueType) bool
}{
	{"samples/count", func(v valueType) bool { return v == valueType{"samples", "count"} }},
	{"CPU-EVENT_sample/count", isPerfCPUSamples},
	{"cpu/nanoseconds", func(v valueType) bool { return v == valueType{"cpu", "nanoseconds"} }},
}

// cpuEvents are the perf events whose samples are CPU time.
var cpuEvents = map[string]bool{"cycles": true, "cpu-cycles": true, "ref-cycles": true,
	"cpu-clock": true, "task-clock": true, "instructions": true}

// isPerfCPUSamples reports whether v is perf_to_profile's sample count
// of a CPU event: "cycles_sample", "cycles:u_sample", "cpu/cycles/_sample",
// "cpu-clock_sample"…
func isPerfCPUSamples(v valueType) bool {
	event, ok := strings.CutSuffix(v.Type, "_sample")
	if !ok || v.Unit != "count" {
		return false
	}
	event, _, _ = strings.Cut(event, ":") // modifiers
	if pmu := strings.Split(event, "/"); len(pmu) == 3 {
		event = pmu[1] // cpu/cycles/, cpu_core/cycles/
	}
	return cpuEvents[event]
}

// timeIndex is the index in types of the value that gives the CPU time,
// in nanoseconds, of the samples of types[vi]: cpu/nanoseconds itself, or
// beside samples/count; perf_to_profile's EVENT_event/count (the periods
// summed) beside EVENT_sample/count for a clock event; -1 for none.
func timeIndex(types []valueType, vi int) int {
	want := valueType{"cpu", "nanoseconds"}
	if event, ok := strings.CutSuffix(types[vi].Type, "_sample"); ok {
		want = valueType{event + "_event", "count"}
		if !clockEvents[strings.SplitN(event, ":", 2)[0]] {
			return -1
		}
	}
	return slices.Index(types, want)
}

// clockEvents are perf's events whose periods are nanoseconds of CPU
// time.
var clockEvents = map[string]bool{"cpu-clock": true, "task-clock": true}

// valueType is a sample type: what a value counts, in what unit.
type valueType struct{ Type, Unit string }

func (v valueType) String() string { return v.Type + "/" + v.Unit }

// matches reports whether v is the sample type asked for: "type/unit" or
// "type".
func (v valueType) matches(want string) bool {
	return want == v.String() || want == v.Type
}

// chooseSampleType returns the index in types of the sample type to read:
// the one asked for, or by default the first of defaultTypes found; or an
// error listing the profile's types.
func chooseSampleType(types []valueType, want string) (int, error) {
	if want != "" {
		if i := slices.IndexFunc(types, func(v valueType) bool { return v.matches(want) }); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("no sample type %s among the profile's %s", want, typeList(types))
	}
	names := make([]string, len(defaultTypes))
	for j, d := range defaultTypes {
		if i := slices.IndexFunc(types, d.match); i >= 0 {
			return i, nil
		}
		names[j] = d.name
	}
	return -1, fmt.Errorf("no CPU sample type (%s) among the profile's %s: an allocation or off-CPU profile gives no PGO profile",
		strings.Join(names, ", "), typeList(types))
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
