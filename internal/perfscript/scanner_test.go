package perfscript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/record"
)

func TestErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"mmap", "x\nPERF_RECORD_MMAP2 1/1: [0x1000(0x10) @ zz 0 0 0]: r-xp /a\n", "in.script:2: malformed PERF_RECORD_MMAP: bad page offset"},
		{"truncated mmap", "PERF_RECORD_MMAP2 1/1: [0x1000(0x1", "in.script:1: malformed PERF_RECORD_MMAP: no (length)"},
		{"fork", "\n\nPERF_RECORD_FORK(1:1)\n", "in.script:3: malformed PERF_RECORD_FORK"},
		{"exit", "PERF_RECORD_EXIT(1:x):(2:2)\n", "in.script:1: malformed PERF_RECORD_EXIT"},
		{"comm", "PERF_RECORD_COMM exec: a:b\n", "in.script:1: malformed PERF_RECORD_COMM: bad pid/tid"},
		{"frame", "\tzz12 foo\n", "in.script:1: call chain frame: bad address"},
		{"count at end", " 0x1/0x2\n7\n", "in.script:2: repeat count on line 2 is not followed by a sample"},
		{"zero count", "0\n 0x1/0x2\n", "in.script:1: repeat count is 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScanner(strings.NewReader(tt.in), "in.script")
			for s.Next() {
			}
			var pe *ParseError
			if err := s.Err(); !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("40062f")
	const n = 100000 // far longer than the reader's buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " 0x%x/0x%x/P/-/-/0", 0x400000+i, 0x500000+i)
	}
	b.WriteString("\n")
	s := NewScanner(strings.NewReader(b.String()), "long")
	if !s.Next() {
		t.Fatal(s.Err())
	}
	br := s.Record().Sample.Branches
	if len(br) != n || br[n-1] != (record.Branch{From: 0x400000 + n - 1, To: 0x500000 + n - 1}) {
		t.Fatalf("got %d branches, last %+v", len(br), br[len(br)-1])
	}
}

// TestLineTooLong: a line past MaxLineBytes is an error naming the line,
// read with bounded memory.
func TestLineTooLong(t *testing.T) {
	in := io.MultiReader(strings.NewReader("40062f 0x40062f/0x4005b0/P/-/-/9\n"), neverNewline{})
	s := NewScanner(in, "huge")
	for s.Next() {
	}
	if err := s.Err(); err == nil || !strings.HasPrefix(err.Error(), "huge:2: line longer than 16 MiB") {
		t.Fatalf("err = %v", err)
	}
}

// neverNewline is an endless line.
type neverNewline struct{}

func (neverNewline) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

func TestSampleLayouts(t *testing.T) {
	tests := []struct {
		in      string
		pid     int32 // -1: no pid
		ip      uint64
		entries int
	}{
		{"40062f 0x40062f/0x4005b0/P/-/-/9", -1, 0x40062f, 1},
		{"401147 0x40112c/0x401147/P/-/-/0", -1, 0x401147, 1}, // decimal-looking IP
		{" 0x1/0x2 0x3/0x4", -1, 0, 2},
		{"77      55f75f6671e0 0x1/0x2", 77, 0x55f75f6671e0, 1},
		{"77      55f75f6671e0 0x1(/t.bin)/0x2([unknown])/P/-/-/0  0x3(/t.bin)/0x4(/t.bin)/P", 77, 0x55f75f6671e0, 2}, // -F dso
		{"77/78   55f75f6671e0 bar+0x4 (/t.bin) 0x1/0x2", 77, 0x55f75f6671e0, 1},
		{"     55f75f6671e0 bar (/tmp/ps/t.bin)", -1, 0x55f75f6671e0, 0},
		{"  t.bin 12399 10448.273986:     500000 cpu-clock:      55f75f6671e9 bar+0x79 (/t.bin)", 12399, 0x55f75f6671e9, 0},
		{"perf exec 5/6 [001] 1.5: cycles:u: 0x1/0x2/M/-/-/12/COND/-", 5, 0, 1},
		{"cc1 5 1.5: 400 cycles: 4011 0x1/0x2", 5, 0x4011, 1},
		{"  Web Content 1234/1240 [003] 10448.273986:     500000 cycles:u:      55f75f6671e9 bar+0x79 (/t.bin) 0x1/0x2/P/-/-/0 0x3/0x4/M/-/-/2/COND/-", 1234, 0x55f75f6671e9, 2},
	}
	for _, tt := range tests {
		s := NewScanner(strings.NewReader(tt.in+"\n"), "in")
		if !s.Next() {
			t.Errorf("%q: no record: %v", tt.in, s.Err())
			continue
		}
		r := s.Record()
		pid := int32(-1)
		if r.HasPID {
			pid = r.PID
		}
		if r.Kind != record.KindSample || pid != tt.pid || r.Sample.IP != tt.ip || len(r.Sample.Branches) != tt.entries {
			t.Errorf("%q: got kind %v pid %d ip %#x %d entries", tt.in, r.Kind, pid, r.Sample.IP, len(r.Sample.Branches))
		}
	}
}

func ExampleScanner() {
	in := "PERF_RECORD_MMAP2 7/7: [0x401000(0x1000) @ 0x1000 0:0 0 0]: r-xp /bin/t\n" +
		"40062f 0x40062f/0x4005b0/P/-/-/9 0x400645/0x4005ff/P/-/-/1\n"
	s := NewScanner(strings.NewReader(in), "example.script")
	for s.Next() {
		r := s.Record()
		switch r.Kind {
		case record.KindMmap:
			fmt.Printf("pid %d maps %s at %#x\n", r.PID, r.Mmap.Path, r.Mmap.Addr)
		case record.KindSample:
			fmt.Printf("sample with %d branches\n", len(r.Sample.Branches))
		}
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// pid 7 maps /bin/t at 0x401000
	// sample with 2 branches
}

// testScripts returns the contents of testdata/*.script, the fuzz
// targets' seeds.
func testScripts(f *testing.F) [][]byte {
	files, _ := filepath.Glob("testdata/*.script")
	var scripts [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		scripts = append(scripts, data)
	}
	return scripts
}

func FuzzScanner(f *testing.F) {
	for _, data := range testScripts(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewScanner(strings.NewReader(string(data)), "fuzz")
		lines := strings.Count(string(data), "\n") + 1
		for s.Next() {
			r := s.Record()
			if r.Line < 1 || r.Line > lines {
				t.Fatalf("record line %d outside 1..%d", r.Line, lines)
			}
		}
		var pe *ParseError
		if err := s.Err(); err != nil && !errors.As(err, &pe) {
			t.Fatalf("non-parse error %v", err)
		}
	})
}

// TestUnknownLineLeavesNoTrace: a line that starts like a sample but is not
// one does not leak its PID into the next sample.
func TestUnknownLineLeavesNoTrace(t *testing.T) {
	s := NewScanner(strings.NewReader("77/78 zzz\n 0x1/0x2\n"), "in")
	if !s.Next() {
		t.Fatal(s.Err())
	}
	if r := s.Record(); r.HasPID || len(r.Sample.Branches) != 1 || s.Stats().SkippedLines != 1 {
		t.Errorf("got %+v, stats %+v", r, s.Stats())
	}
}

func BenchmarkScanner(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "%7d %16x", 100+i%4, 0x555500001000+i)
		for j := 0; j < 32; j++ {
			fmt.Fprintf(&sb, " 0x%x/0x%x/P/-/-/%d/COND/-", 0x555500001000+i*7+j, 0x555500002000+j, j)
		}
		sb.WriteString("\n")
	}
	data := sb.String()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s := NewScanner(strings.NewReader(data), "bench")
		for s.Next() {
		}
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
}

// TestNoAllocationPerLine: reading 40 times the input costs no more
// allocations than reading it once (symbol and DSO names are interned,
// slices reused).
func TestNoAllocationPerLine(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.script")
	var one []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		one = append(one, b...)
	}
	many := []byte(strings.Repeat(string(one), 40))
	mallocs := func(data []byte) uint64 {
		in := bytes.NewReader(data)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		s := NewScanner(in, "in")
		for s.Next() {
		}
		runtime.ReadMemStats(&m1)
		return m1.Mallocs - m0.Mallocs
	}
	if a1, a40 := mallocs(one), mallocs(many); a40 > a1+40 {
		t.Errorf("%d allocations for the input, %d for 40 times it", a1, a40)
	}
}
