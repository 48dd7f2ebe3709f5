package contprof

import (
	"testing"
)

// TestIsProfile: pprof (gzipped or not) and OTLP are told from perf script
// text and the other text profiles by their first bytes.
func TestIsProfile(t *testing.T) {
	otlp := otlpMessage(testDict(), cpuProfile(pb{}.v(1, 1).packed(4, 2)))
	for name, raw := range map[string][]byte{
		"pprof":         encodePprof(t, testPprof("samples/count"), false),
		"pprof gzipped": encodePprof(t, testPprof("samples/count"), true),
		"otlp":          otlp,
	} {
		if !IsProfile(raw[:min(len(raw), 4096)]) {
			t.Errorf("%s: not told a profile", name)
		}
	}
	for _, text := range []string{
		"PERF_RECORD_MMAP2 1234/1234: [0x401000(0x1000) @ 0x1000 fe:00 1 2]: r-xp /t.bin\n",
		" 401139 0x40111f/0x401139/P/-/-/0\n",
		"\n\nfoo 123 [000] 1.0: cpu-clock:\n\t4011 main (/t.bin)\n",
		"# profgen address profile v1\n",
		"main:100:10\n 1: 10\n",
		"",
	} {
		if IsProfile([]byte(text)) {
			t.Errorf("%q told a profile", text)
		}
	}
}
