package callstack

import (
	"debug/elf"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

const dataDir = "../../testdata/callstack/"

func forkyBinary(t testing.TB) Binary {
	f, err := elf.Open(dataDir + "forky")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return NewELFBinary(dataDir+"forky", f)
}

func aggregateFile(t testing.TB, name string) (*Counts, error) {
	f, err := os.Open(dataDir + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := NewAggregator([]Binary{forkyBinary(t)})
	r := NewScriptReader(f, name)
	for r.Next() {
		if err := a.Add(r.Record()); err != nil {
			return nil, err
		}
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	return a.Counts(), nil
}

// leafCounts sums samples by the leaf frame's object path and address.
func leafCounts(c *Counts) map[string]uint64 {
	m := map[string]uint64{}
	for _, s := range c.Stacks {
		l := s.Locs[0]
		m[c.Objects[l.Obj].Path+"@"+hex(l.Addr)] += s.Count
	}
	return m
}

func hex(v uint64) string { return "0x" + strings.ToLower(strings.TrimLeft(formatHex(v), "0")) }

func formatHex(v uint64) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}

func TestLayoutsAgree(t *testing.T) {
	ref, err := aggregateFile(t, "forky.pid-ip-sym-dso-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	var inForky uint64
	for _, s := range ref.Stacks {
		if ref.Objects[s.Locs[0].Obj].Binary == 0 {
			inForky += s.Count
		}
	}
	// perf report --no-children --sort sym --dsos forky: 22+172+1 samples.
	if inForky != 195 {
		t.Errorf("samples with the leaf in forky = %d, want 195 (forky.report.txt)", inForky)
	}
	for _, name := range []string{"forky.default.script", "forky.default-tasks.script", "forky.pid-ip-sym-dso.script",
		"forky.pid-ip-sym-dso-srcline.script"} {
		got, err := aggregateFile(t, name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(leafCounts(got), leafCounts(ref)) || len(got.Stacks) != len(ref.Stacks) {
			t.Errorf("%s: stacks differ from the pid,ip,sym,dso layout", name)
		}
	}
}

// TestAbsoluteIPsThroughAddressSpaces: with -G perf prints absolute IPs;
// they resolve through the per-PID address spaces (the children of each
// forky have no MMAP of their own: they inherit their parent's at FORK) to
// the same leaves as the DSO-relative call-chain frames.
func TestAbsoluteIPsThroughAddressSpaces(t *testing.T) {
	ref, err := aggregateFile(t, "forky.pid-ip-sym-dso-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	got, err := aggregateFile(t, "forky.pid-ip-sym-dso-noG-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for k, n := range leafCounts(ref) {
		if strings.HasSuffix(strings.Split(k, "@")[0], "forky") {
			want[k] = n
		}
	}
	gotForky := map[string]uint64{}
	for k, n := range leafCounts(got) {
		if strings.HasSuffix(strings.Split(k, "@")[0], "forky") {
			gotForky[k] = n
		}
	}
	if !reflect.DeepEqual(gotForky, want) {
		t.Errorf("leaves from absolute IPs:\n%v\nwant (from call chains):\n%v", gotForky, want)
	}
}

func TestNoDSOLayoutRejected(t *testing.T) {
	_, err := aggregateFile(t, "forky.ip.script")
	if !errors.Is(err, ErrNoDSO) {
		t.Errorf("error = %v, want ErrNoDSO", err)
	}
}

func TestParseHeader(t *testing.T) {
	tests := []struct {
		line  string
		chain bool
		want  Sample
	}{
		{"forky  8460 10289.224735:    2004008 cpu-clock: ", true, Sample{PID: 8460, Period: 2004008, Event: "cpu-clock", TimeNS: 10289224735000}},
		{"my comm 12/13 [001] 5.000001:  100 cycles:u: ", true, Sample{PID: 12, Period: 100, Event: "cycles:u", TimeNS: 5000001000}},
		{" 8460 ", true, Sample{PID: 8460}},
		{"   401136", false, Sample{PID: -1, Frames: []Frame{{Addr: 0x401136, Absolute: true}}}},
		{" 9497    2004008 cpu-clock: ", true, Sample{PID: 9497, Period: 2004008, Event: "cpu-clock"}},
		{"     7fb022a2df02", false, Sample{PID: -1, Frames: []Frame{{Addr: 0x7fb022a2df02, Absolute: true}}}},
		{"forky  8460 1.5:  7 cpu-clock:  56038970e27e spin+0x4e (/tmp/forky)", false, Sample{PID: 8460, Period: 7, Event: "cpu-clock", TimeNS: 1500000000,
			Frames: []Frame{{Addr: 0x56038970e27e, Symbol: "spin", DSO: "/tmp/forky", Absolute: true}}}},
	}
	for _, tt := range tests {
		got, err := parseHeader(tt.line, tt.chain)
		if err != nil || !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("parseHeader(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

func TestParseFrame(t *testing.T) {
	tests := []struct {
		line string
		want Frame
	}{
		{"\t            127e spin+0x4e (/tmp/forky)", Frame{Addr: 0x127e, Symbol: "spin", DSO: "/tmp/forky"}},
		{"\t            127e spin (/tmp/forky)", Frame{Addr: 0x127e, Symbol: "spin", DSO: "/tmp/forky"}},
		{"\t           14f02 (/lib/ld.so)", Frame{Addr: 0x14f02, DSO: "/lib/ld.so"}},
		{"\t      1040000000 [unknown] ([unknown])", Frame{Addr: 0x1040000000, Symbol: "[unknown]", DSO: "[unknown]"}},
		{"\t            1369", Frame{Addr: 0x1369}},
		{"\t  4011 f(int) const+0x3 (/a b/c)", Frame{Addr: 0x4011, Symbol: "f(int) const", DSO: "/a b/c"}},
	}
	for _, tt := range tests {
		got, err := parseFrame(tt.line)
		if err != nil || got != tt.want {
			t.Errorf("parseFrame(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
	if _, err := parseFrame("\tzz spin"); err == nil {
		t.Error("bad address accepted")
	}
}

func TestSpaces(t *testing.T) {
	s := NewSpaces()
	s.Apply(&Mmap{PID: 10, Start: 0x5000, Len: 0x2000, PgOff: 0x1000, Path: "/a", Executable: true})
	s.Apply(&Mmap{PID: 10, Start: 0x9000, Len: 0x1000, Path: "/data"}) // not executable
	s.Apply(&Fork{PID: 11, TID: 11, ParentPID: 10})
	s.Apply(&Fork{PID: 10, TID: 12, ParentPID: 10}) // a thread
	s.Apply(&Mmap{PID: 10, Start: 0x6000, Len: 0x1000, Path: "/b", Executable: true})
	tests := []struct {
		pid  int
		addr uint64
		path string
		off  uint64
		ok   bool
	}{
		{10, 0x5010, "/a", 0x1010, true},
		{10, 0x6010, "/b", 0x10, true},   // replaced by the newer mapping
		{11, 0x6010, "/a", 0x2010, true}, // the child kept the parent's
		{10, 0x9000, "", 0, false},
		{12, 0x5010, "", 0, false},
	}
	for _, tt := range tests {
		p, o, ok := s.Lookup(tt.pid, tt.addr)
		if p != tt.path || o != tt.off || ok != tt.ok {
			t.Errorf("Lookup(%d, %#x) = %s, %#x, %v; want %s, %#x, %v", tt.pid, tt.addr, p, o, ok, tt.path, tt.off, tt.ok)
		}
	}
	s.Apply(&Exit{PID: 11, TID: 11})
	s.Apply(&Exec{PID: 10})
	for _, pid := range []int{10, 11} {
		if _, _, ok := s.Lookup(pid, 0x5010); ok {
			t.Errorf("pid %d still mapped after exit/exec", pid)
		}
	}
}

// TestSpacesPIDReuse: a PID that comes back after EXIT gets its new
// parent's mappings, not those of the process that used it before.
func TestSpacesPIDReuse(t *testing.T) {
	s := NewSpaces()
	s.Apply(&Mmap{PID: 10, Start: 0x5000, Len: 0x1000, Path: "/a", Executable: true})
	s.Apply(&Mmap{PID: 20, Start: 0x5000, Len: 0x1000, Path: "/b", Executable: true})
	s.Apply(&Fork{PID: 11, TID: 11, ParentPID: 10})
	s.Apply(&Exit{PID: 11, TID: 11})
	if _, _, ok := s.Lookup(11, 0x5000); ok {
		t.Fatal("exited pid still mapped")
	}
	s.Apply(&Fork{PID: 11, TID: 11, ParentPID: 20})
	if p, _, _ := s.Lookup(11, 0x5000); p != "/b" {
		t.Errorf("reused pid maps %q, want /b", p)
	}
	s.Apply(&Exit{PID: 11, TID: 12}) // a thread exits: the process stays
	if _, _, ok := s.Lookup(11, 0x5000); !ok {
		t.Error("thread exit dropped the process")
	}
}

func FuzzScriptReader(f *testing.F) {
	for _, name := range []string{"forky.default-tasks.script", "forky.pid-ip-sym-dso-tasks.script", "forky.ip.script"} {
		b, err := os.ReadFile(dataDir + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b[:min(len(b), 4096)]))
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := NewScriptReader(strings.NewReader(s), "fuzz")
		a := NewAggregator(nil)
		for r.Next() {
			a.Add(r.Record())
		}
		a.Counts()
	})
}
