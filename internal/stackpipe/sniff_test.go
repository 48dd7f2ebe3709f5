package stackpipe

import (
	"os"
	"testing"
)

func TestIsCallStackScript(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"call chain", "forky 1 1.0: 1 cpu-clock:\n\t 127e spin (/tmp/forky)\n", true},
		{"lbr", " 401147 0x40112c/0x401147/P/-/-/0 0x401142/0x401110/P/-/-/0\n", false},
		{"hybrid", "\t 4005dc\n\t 400634\n 0x4005c8/0x4005dc/P/-/-/0\n", false},
		{"ip only", " 9497  55dbf371e2b6 spin (/tmp/forky)\n", false},
		{"mmap only", " 1 PERF_RECORD_MMAP2 1/1: [0x1(0x1) @ 0x0 0:0 0 0]: r-xp /0xa/b\n", false},
	}
	for _, tt := range tests {
		if got := IsCallStackScript([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: IsCallStackScript = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsCallStackInput(t *testing.T) {
	for _, cfg := range []Config{
		{PerfData: dataDir + "forky.perf.data"},
		{PerfScript: dataDir + "forky.default.script"},
		{PerfScript: dataDir + "forky.pid-ip-sym-dso-tasks.script"},
	} {
		if ok, err := IsCallStackInput(cfg); !ok || err != nil {
			t.Errorf("IsCallStackInput(%+v) = %v, %v; want true", cfg, ok, err)
		}
	}
	if _, err := os.Stat(dataDir + "forky.ip-noG.script"); err == nil {
		if ok, _ := IsCallStackInput(Config{PerfScript: dataDir + "forky.ip-noG.script"}); ok {
			t.Error("an IP-only script taken for call stacks")
		}
	}
}
