package dataaccess

import (
	"os"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/record"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, line string
		want       []Sample // nil: no sample
		err        bool
	}{
		{"llvm's layout", "1282514021937402 0x8660 [0x60]: PERF_RECORD_SAMPLE(IP, 0x4002): 3446532/3446532: 0x2608a2 period: 233 addr: 0x3b3f70",
			[]Sample{{3446532, 0x2608a2, 0x3b3f70}}, false},
		{"anything after the address", "x PERF_RECORD_SAMPLE(IP, 0x4002): 1/2: 0xA period: 1 addr: 0xB trailing",
			[]Sample{{1, 0xa, 0xb}}, false},
		{"no address", "PERF_RECORD_SAMPLE(IP, 0x2): 1/1: 0xa period: 1", nil, false},
		{"two spaces", "PERF_RECORD_SAMPLE(IP, 0x4002):  1/1: 0xa period: 1 addr: 0xb", nil, false},
		{"pid overflows", "PERF_RECORD_SAMPLE(IP, 0x4002): 99999999999/1: 0xa period: 1 addr: 0xb", nil, true},
		{"address overflows", "PERF_RECORD_SAMPLE(IP, 0x4002): 1/1: 0xa period: 1 addr: 0x11112222333344445", nil, true},
		{"ip overflows: 0", "PERF_RECORD_SAMPLE(IP, 0x4002): 1/1: 0x11112222333344445 period: 1 addr: 0xb", []Sample{{1, 0, 0xb}}, false},
		{"other lines", "0x7a98 [0x30]: event: 9", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Read(strings.NewReader(tt.line+"\n"), "trace")
			if (err != nil) != tt.err {
				t.Fatalf("error %v, want one: %v", err, tt.err)
			}
			if err != nil {
				return
			}
			var got []Sample
			for _, it := range tr.Items {
				if !it.IsEvent {
					got = append(got, it.Sample)
				}
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReadEvents(t *testing.T) {
	f, err := os.Open("../../cmd/profgen/testdata/parity/dap-trace.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := Read(f, "dap-trace.txt")
	if err != nil {
		t.Fatal(err)
	}
	events, samples := 0, 0
	for _, it := range tr.Items {
		if it.IsEvent {
			events++
		} else {
			samples++
		}
	}
	if events != 6 || samples != 26 {
		t.Errorf("%d events (COMM, 5 MMAP2), %d samples; want 6 and 26", events, samples)
	}
}

func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile("../../cmd/profgen/testdata/parity/dap-trace.txt"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("PERF_RECORD_SAMPLE(IP, 0x4002): 1/1: 0xa period: 1 addr: 0xb\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			return
		}
		for _, it := range tr.Items {
			if it.IsEvent && it.Event.Kind == record.KindSample {
				t.Fatal("a sample read as an event")
			}
		}
	})
}
