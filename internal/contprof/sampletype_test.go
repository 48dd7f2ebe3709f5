package contprof

import "testing"

func TestChooseSampleType(t *testing.T) {
	vt := func(s ...string) []valueType {
		var out []valueType
		for i := 0; i < len(s); i += 2 {
			out = append(out, valueType{s[i], s[i+1]})
		}
		return out
	}
	tests := []struct {
		name  string
		types []valueType
		want  string
		index int // -1: refused
	}{
		{"go", vt("samples", "count", "cpu", "nanoseconds"), "", 0},
		{"cpu time only", vt("cpu", "nanoseconds"), "", 0},
		{"perf_to_profile", vt("cycles:u_sample", "count", "cycles:u_event", "count"), "", 0},
		{"perf_to_profile pmu", vt("cpu_core/cycles/u_event", "count", "cpu_core/cycles/u_sample", "count"), "", 1},
		{"perf_to_profile cpu-clock", vt("cpu-clock_sample", "count", "cpu-clock_event", "count"), "", 0},
		{"perf_to_profile cache misses", vt("cache-misses_sample", "count", "cache-misses_event", "count"), "", -1},
		{"samples first", vt("cpu", "nanoseconds", "samples", "count"), "", 1},
		{"off-cpu", vt("off_cpu", "nanoseconds"), "", -1},
		{"kprobe events", vt("events", "count"), "", -1},
		{"alloc", vt("alloc_objects", "count", "alloc_space", "bytes"), "", -1},
		{"asked by type", vt("alloc_objects", "count", "alloc_space", "bytes"), "alloc_space", 1},
		{"asked by type/unit", vt("samples", "count", "cpu", "nanoseconds"), "cpu/nanoseconds", 1},
		{"asked, absent", vt("samples", "count"), "cpu", -1},
	}
	for _, tt := range tests {
		i, err := chooseSampleType(tt.types, tt.want)
		if i != tt.index || (err != nil) != (tt.index < 0) {
			t.Errorf("%s: %d, %v; want %d", tt.name, i, err, tt.index)
		}
	}
}
