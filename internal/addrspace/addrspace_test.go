package addrspace

import (
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

var pie = Binary{Path: "/build/app", PreferredBase: 0x1000, TextOffset: 0x1000}

func TestRuntimeBase(t *testing.T) {
	tests := []struct {
		name string
		bin  Binary
		m    record.Mmap
		base uint64
		ok   bool
	}{
		{"text mapping", pie, record.Mmap{Addr: 0x5600_0000_1000, Len: 0x1000, PgOff: 0x1000, Prot: "r-xp"}, 0x5600_0000_1000, true},
		{"rodata mapping", pie, record.Mmap{Addr: 0x5600_0000_2000, Len: 0x1000, PgOff: 0x2000, Prot: "r--p"}, 0, false},
		{"header mapping", pie, record.Mmap{Addr: 0x5600_0000_0000, Len: 0x1000, PgOff: 0, Prot: "r--p"}, 0, false},
		{"whole file mapping", pie, record.Mmap{Addr: 0x5600_0000_0000, Len: 0x5000, PgOff: 0, Prot: "r-xp"}, 0x5600_0000_1000, true},
		{"mmap v1 without prot", pie, record.Mmap{Addr: 0x7000, Len: 0x1000, PgOff: 0x1000}, 0x7000, true},
		{"non-pie", Binary{PreferredBase: 0x401000, TextOffset: 0x1000}, record.Mmap{Addr: 0x401000, Len: 0x1000, PgOff: 0x1000, Prot: "r-xp"}, 0x401000, true},
		{"lld layout", Binary{PreferredBase: 0x2000, TextOffset: 0x0}, record.Mmap{Addr: 0x55aa_0000_2000, Len: 0x3000, PgOff: 0, Prot: "r-xp"}, 0x55aa_0000_2000, true},
	}
	for _, tt := range tests {
		base, ok := RuntimeBase(tt.bin, tt.m)
		if base != tt.base || ok != tt.ok {
			t.Errorf("%s: got %#x %v, want %#x %v", tt.name, base, ok, tt.base, tt.ok)
		}
	}
}

// run applies the events of a perf script to a table and returns it.
func run(t *testing.T, bin Binary, pids []int32, script string) *Table {
	t.Helper()
	tab := New(bin, pids)
	s := perfscript.NewScanner(strings.NewReader(script), "t")
	for s.Next() {
		tab.Update(s.Record())
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	return tab
}

func mmap2(pid, addr string) string {
	return pid + " PERF_RECORD_MMAP2 " + pid + "/" + pid + ": [" + addr + "(0x1000) @ 0x1000 fe:00 1 2]: r-xp /other/dir/app\n"
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		name   string
		pids   []int32
		script string
		hasPID bool
		pid    int32
		addr   uint64
		want   uint64
		why    Reason
	}{
		{"own mapping", nil, mmap2("10", "0x5000000") + mmap2("11", "0x7000000"), true, 10, 0x5000150, 0x1150, OK},
		{"second process", nil, mmap2("10", "0x5000000") + mmap2("11", "0x7000000"), true, 11, 0x7000150, 0x1150, OK},
		{"no mapping", nil, mmap2("10", "0x5000000"), true, 12, 0x5000150, 0, NoMapping},
		{"fork inherits", nil, mmap2("10", "0x5000000") + "10 PERF_RECORD_FORK(12:12):(10:10)\n", true, 12, 0x5000150, 0x1150, OK},
		{"exit drops", nil, mmap2("10", "0x5000000") + "10 PERF_RECORD_EXIT(10:10):(1:1)\n", true, 10, 0x5000150, 0, NoMapping},
		{"thread exit keeps", nil, mmap2("10", "0x5000000") + "10 PERF_RECORD_EXIT(10:13):(10:10)\n", true, 10, 0x5000150, 0x1150, OK},
		{"exec drops", nil, mmap2("10", "0x5000000") + "10 PERF_RECORD_COMM exec: sh:10/10\n", true, 10, 0x5000150, 0, NoMapping},
		{"recycled pid", nil, mmap2("10", "0x5000000") + "10 PERF_RECORD_EXIT(10:10):(1:1)\n" + mmap2("10", "0x9000000"), true, 10, 0x9000150, 0x1150, OK},
		{"fork of unmapped parent clears stale child", nil, mmap2("12", "0x5000000") + "10 PERF_RECORD_FORK(12:12):(10:10)\n", true, 12, 0x5000150, 0, NoMapping},
		{"filtered", []int32{11}, mmap2("10", "0x5000000"), true, 10, 0x5000150, 0, FilteredPID},
		{"no pid: last mapping", nil, mmap2("10", "0x5000000"), false, 0, 0x5000150, 0x1150, OK},
		{"no pid: filter picks mapping", []int32{10}, mmap2("10", "0x5000000") + mmap2("11", "0x7000000"), false, 0, 0x5000150, 0x1150, OK},
		{"no pid, no mmap: preferred base", nil, "", false, 0, 0x1150, 0x1150, OK},
	}
	for _, tt := range tests {
		tab := run(t, pie, tt.pids, tt.script)
		got, why := tab.Canonical(tt.hasPID, tt.pid, tt.addr)
		if why != tt.why || (why == OK && got != tt.want) {
			t.Errorf("%s: got %#x %v, want %#x %v", tt.name, got, why, tt.want, tt.why)
		}
	}
}

// TestLookup: mappings of every DSO per process; a newer mapping replaces
// what it overlaps, a forked child copies its parent's, a thread has none of
// its own, EXIT and exec drop a process's mappings.
func TestLookup(t *testing.T) {
	tab := run(t, Binary{}, nil, `10 PERF_RECORD_MMAP2 10/10: [0x5000(0x2000) @ 0x1000 fe:00 1 2]: r-xp /a
10 PERF_RECORD_MMAP2 10/10: [0x9000(0x1000) @ 0 fe:00 1 2]: rw-p /data
10 PERF_RECORD_FORK(11:11):(10:10)
10 PERF_RECORD_FORK(10:12):(10:10)
10 PERF_RECORD_MMAP2 10/10: [0x6000(0x1000) @ 0 fe:00 1 2]: r-xp /b
`)
	tests := []struct {
		pid  int32
		addr uint64
		path string
		off  uint64
		ok   bool
	}{
		{10, 0x5010, "/a", 0x1010, true},
		{10, 0x6010, "/b", 0x10, true},   // replaced by the newer mapping
		{11, 0x6010, "/a", 0x2010, true}, // the child kept the parent's
		{10, 0x9000, "", 0, false},       // not executable
		{12, 0x5010, "", 0, false},       // a thread, not a process
	}
	for _, tt := range tests {
		m, ok := tab.Lookup(tt.pid, tt.addr)
		if m.Path != tt.path || (ok && m.FileOffset(tt.addr) != tt.off) || ok != tt.ok {
			t.Errorf("Lookup(%d, %#x) = %+v, %v; want %s, %#x, %v", tt.pid, tt.addr, m, ok, tt.path, tt.off, tt.ok)
		}
	}
	for _, ev := range []string{"11 PERF_RECORD_EXIT(11:11):(10:10)\n", "10 PERF_RECORD_COMM exec: x:10/10\n"} {
		s := perfscript.NewScanner(strings.NewReader(ev), "t")
		for s.Next() {
			tab.Update(s.Record())
		}
	}
	for _, pid := range []int32{10, 11} {
		if _, ok := tab.Lookup(pid, 0x5010); ok {
			t.Errorf("pid %d still mapped after exit/exec", pid)
		}
	}
}

// TestLookupPIDReuse: a PID that comes back after EXIT gets its new
// parent's mappings, not those of the process that used it before; a
// thread's exit leaves the process mapped.
func TestLookupPIDReuse(t *testing.T) {
	tab := run(t, Binary{}, nil, `10 PERF_RECORD_MMAP2 10/10: [0x5000(0x1000) @ 0 fe:00 1 2]: r-xp /a
20 PERF_RECORD_MMAP2 20/20: [0x5000(0x1000) @ 0 fe:00 1 2]: r-xp /b
10 PERF_RECORD_FORK(11:11):(10:10)
11 PERF_RECORD_EXIT(11:11):(10:10)
20 PERF_RECORD_FORK(11:11):(20:20)
11 PERF_RECORD_EXIT(11:12):(20:20)
`)
	if m, _ := tab.Lookup(11, 0x5000); m.Path != "/b" {
		t.Errorf("reused pid maps %q, want /b", m.Path)
	}
}

// TestDeltaOfSeveralBinaries: a table of two binaries places a process's
// address at each binary's own base; each binary's stats are its own.
func TestDeltaOfSeveralBinaries(t *testing.T) {
	lib := Binary{Path: "/usr/lib/libfoo.so", TextOffset: 0x1000}
	libMmap := func(pid, addr string) string {
		return pid + " PERF_RECORD_MMAP2 " + pid + "/" + pid + ": [" + addr + "(0x1000) @ 0x1000 fe:00 2 2]: r-xp /usr/lib/libfoo.so\n"
	}
	script := mmap2("10", "0x5000000") + libMmap("10", "0x7f0000000") + mmap2("11", "0x6000000") +
		"10 PERF_RECORD_FORK(12:12):(10:10)\n" + libMmap("13", "0x7f1000000")
	tab := NewOf([]Binary{pie, lib}, nil)
	base := uint64(0x7f0000000)
	wrapped := 0x5000150 - base // unsigned, as llvm-profgen's canonical addresses
	s := perfscript.NewScanner(strings.NewReader(script), "t")
	for s.Next() {
		tab.Update(s.Record())
	}
	tests := []struct {
		name string
		bin  int
		pid  int32
		addr uint64
		want uint64
		why  Reason
	}{
		{"program", 0, 10, 0x5000150, 0x1150, OK},
		{"library", 1, 10, 0x7f0000150, 0x150, OK},
		{"program in the library's place", 1, 10, 0x5000150, wrapped, OK},
		{"no library in the process", 1, 11, 0x6000150, 0, NoMapping},
		{"forked child inherits both", 1, 12, 0x7f0000150, 0x150, OK},
		{"library alone", 1, 13, 0x7f1000150, 0x150, OK},
		{"no program in the process", 0, 13, 0x7f1000150, 0, NoMapping},
	}
	for _, tt := range tests {
		d, why := tab.DeltaOf(tt.bin, true, tt.pid)
		if why != tt.why || (why == OK && tt.addr+d != tt.want) {
			t.Errorf("%s: got %#x %v, want %#x %v", tt.name, tt.addr+d, why, tt.want, tt.why)
		}
	}
	if d, _ := tab.Delta(true, 10); 0x5000150+d != 0x1150 {
		t.Errorf("Delta is binary 0's: %#x", d)
	}
	if got := [2]int{tab.StatsOf(0).Mappings, tab.StatsOf(1).Mappings}; got != [2]int{2, 2} || tab.Stats() != tab.StatsOf(0) {
		t.Errorf("mappings by binary %v, want [2 2]", got)
	}
}

// TestCOFFPaths: a PE image's mmaps name it by a Windows path, matched by
// the name after its last \ or / (and not otherwise, as llvm-profgen).
func TestCOFFPaths(t *testing.T) {
	coff := Binary{Path: "/build/app.exe", PreferredBase: 0x140000000, TextOffset: 0x1000, COFF: true}
	tests := []struct {
		name string
		bin  Binary
		path string
		want Reason
	}{
		{"backslashes", coff, `c:\Users\dev\app.exe`, OK},
		{"slashes", coff, "c:/Users/dev/app.exe", OK},
		{"CRLF line end", coff, "c:\\Users\\dev\\app.exe\r", OK},
		{"another image", coff, `c:\Users\dev\other.exe`, NoMapping},
		{"an ELF binary's path is not split at \\", Binary{Path: "/build/app.exe", TextOffset: 0x1000}, `c:\Users\dev\app.exe`, NoMapping},
	}
	for _, tt := range tests {
		script := "5752 PERF_RECORD_MMAP2 5752/0: [0x7ff70a1b0000(0x9c000) @ 0x1000 00:00 0 0]: r-xp " + tt.path + "\n"
		tab := run(t, tt.bin, nil, script)
		addr, why := tab.Canonical(true, 5752, 0x7ff70a1b1482)
		if why != tt.want || why == OK && addr != 0x140001482 {
			t.Errorf("%s: %#x %v, want 0x140001482 %v", tt.name, addr, why, tt.want)
		}
	}
}
