package addrspace

import (
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/perfscript"
)

var pie = Binary{Path: "/build/app", PreferredBase: 0x1000, TextOffset: 0x1000}

func TestRuntimeBase(t *testing.T) {
	tests := []struct {
		name string
		bin  Binary
		m    perfscript.Mmap
		base uint64
		ok   bool
	}{
		{"text mapping", pie, perfscript.Mmap{Addr: 0x5600_0000_1000, Len: 0x1000, PgOff: 0x1000, Prot: "r-xp"}, 0x5600_0000_1000, true},
		{"rodata mapping", pie, perfscript.Mmap{Addr: 0x5600_0000_2000, Len: 0x1000, PgOff: 0x2000, Prot: "r--p"}, 0, false},
		{"header mapping", pie, perfscript.Mmap{Addr: 0x5600_0000_0000, Len: 0x1000, PgOff: 0, Prot: "r--p"}, 0, false},
		{"whole file mapping", pie, perfscript.Mmap{Addr: 0x5600_0000_0000, Len: 0x5000, PgOff: 0, Prot: "r-xp"}, 0x5600_0000_1000, true},
		{"mmap v1 without prot", pie, perfscript.Mmap{Addr: 0x7000, Len: 0x1000, PgOff: 0x1000}, 0x7000, true},
		{"non-pie", Binary{PreferredBase: 0x401000, TextOffset: 0x1000}, perfscript.Mmap{Addr: 0x401000, Len: 0x1000, PgOff: 0x1000, Prot: "r-xp"}, 0x401000, true},
		{"lld layout", Binary{PreferredBase: 0x2000, TextOffset: 0x0}, perfscript.Mmap{Addr: 0x55aa_0000_2000, Len: 0x3000, PgOff: 0, Prot: "r-xp"}, 0x55aa_0000_2000, true},
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
