package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseInstr(t *testing.T) {
	tests := []struct {
		in   string
		addr uint64
		size uint32
		ok   bool
	}{
		{"04016a0,3\n", 0x4016a0, 3, true},
		{"1ffefffe78,15", 0x1ffefffe78, 15, true},
		{"ABCdef,1\n", 0xabcdef, 1, true},
		{"04016a0,16\n", 0, 0, false}, // longer than any x86 instruction
		{"04016a0,0\n", 0, 0, false},
		{"04016a0\n", 0, 0, false},
		{",3\n", 0, 0, false},
		{"0401g6a0,3\n", 0, 0, false},
		{"04016a0,3 x\n", 0, 0, false},
		{"12345678901234567,3", 0, 0, false}, // 17 hex digits
	}
	for _, tt := range tests {
		addr, size, ok := parseInstr([]byte(tt.in))
		if addr != tt.addr || size != tt.size || ok != tt.ok {
			t.Errorf("parseInstr(%q) = %#x, %d, %v; want %#x, %d, %v", tt.in, addr, size, ok, tt.addr, tt.size, tt.ok)
		}
	}
}

func TestReadLackey(t *testing.T) {
	in := "==1== Lackey\nI  0400,2\n S 7ff0,8\n L 7ff8,4\nI  0402,1\n M 10,4\n" +
		strings.Repeat("x", 3<<20) + "\nI  0500,3"
	var got [][2]uint64
	err := readLackey(strings.NewReader(in), func(a uint64, s uint32) error {
		got = append(got, [2]uint64{a, uint64(s)})
		return nil
	})
	want := [][2]uint64{{0x400, 2}, {0x402, 1}, {0x500, 3}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("readLackey = %v, %v; want %v", got, err, want)
	}
}

func TestRecorder(t *testing.T) {
	type insn struct {
		addr uint64
		size uint32
	}
	tests := []struct {
		name   string
		period uint64
		depth  int
		insns  []insn
		want   []Sample // Kind, Cycles and Mispred not compared
	}{
		{
			name: "fall-through only", period: 2, depth: 4,
			insns: []insn{{0x10, 2}, {0x12, 3}, {0x15, 1}, {0x16, 4}},
			want:  nil,
		},
		{
			name: "loop, ring wraps", period: 3, depth: 2,
			insns: []insn{{0x10, 2}, {0x12, 2}, {0x10, 2}, {0x12, 2}, {0x10, 2}, {0x12, 2}, {0x30, 1}},
			want: []Sample{
				{Seq: 0, IP: 0x10, Entries: []Entry{{From: 0x12, To: 0x10}}},
				{Seq: 1, IP: 0x12, Entries: []Entry{{From: 0x12, To: 0x10}, {From: 0x12, To: 0x10}}},
			},
		},
		{
			name: "rep iterations count once", period: 2, depth: 4,
			insns: []insn{{0x10, 2}, {0x12, 2}, {0x12, 2}, {0x12, 2}, {0x40, 1}, {0x41, 1}},
			want: []Sample{
				{Seq: 0, IP: 0x41, Entries: []Entry{{From: 0x12, To: 0x40}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Sample
			rec := newRecorder(tt.period, tt.depth, 1, func(uint64, uint32, uint64) BranchKind { return KindUnknown },
				func(s *Sample) error {
					c := Sample{Seq: s.Seq, IP: s.IP}
					for _, e := range s.Entries {
						c.Entries = append(c.Entries, Entry{From: e.From, To: e.To})
					}
					got = append(got, c)
					return nil
				})
			for _, in := range tt.insns {
				if err := rec.instruction(in.addr, in.size); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("samples\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestBranchKind(t *testing.T) {
	tests := []struct {
		code []byte
		want BranchKind
	}{
		{[]byte{0xe8, 1, 2, 3, 4}, KindCall},
		{[]byte{0xff, 0xd0}, KindIndCall},             // call *%rax
		{[]byte{0x41, 0xff, 0x14, 0x24}, KindIndCall}, // call *(%r12)
		{[]byte{0xff, 0x25, 0, 0, 0, 0}, KindInd},     // jmp *(%rip)
		{[]byte{0x3e, 0xff, 0xe0}, KindInd},           // notrack jmp *%rax
		{[]byte{0xe9, 0, 0, 0, 0}, KindUncond},
		{[]byte{0xeb, 0xfe}, KindUncond},
		{[]byte{0x75, 0xfb}, KindCond},
		{[]byte{0x0f, 0x84, 0, 0, 0, 0}, KindCond},
		{[]byte{0xc3}, KindRet},
		{[]byte{0xf3, 0xc3}, KindRet}, // rep ret
		{[]byte{0xf2, 0xe8, 0, 0, 0, 0}, KindCall},
		{[]byte{0x0f, 0x05}, KindSyscall},
		{[]byte{0xf3, 0x0f, 0x1e, 0xfa}, KindUnknown}, // endbr64
		{[]byte{0x48, 0x89, 0xe5}, KindUnknown},
		{nil, KindUnknown},
	}
	for _, tt := range tests {
		if got := branchKind(tt.code); got != tt.want {
			t.Errorf("branchKind(% x) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestReadMaps(t *testing.T) {
	lay := newLayout(tinyBinary(), 0x108000)
	f, err := os.Open("testdata/tiny.maps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ms, err := readMaps(f, lay)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range ms {
		paths = append(paths, m.Path)
	}
	want := []string{"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		"/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	libc := mapping{Addr: 0x486b000, Len: 0x156000, Pgoff: 0x26000, Maj: 0xfe, Ino: 326269, Prot: "r-xp", Path: want[2]}
	if ms[2] != libc {
		t.Errorf("libc mapping %+v, want %+v", ms[2], libc)
	}
}

func TestAppendMMap2(t *testing.T) {
	m := mapping{Addr: 0x561f6d184000, Len: 0x1000, Pgoff: 0x1000, Maj: 0xfe, Ino: 9979526, Gen: 1907999959, Prot: "r-xp", Path: "/path/t2.bin"}
	got := string(appendEvent(nil, &head{pid: 21305}, &event{kind: evMMap2, pid: 21305, m: m}, layoutPlain))
	want := "21305 PERF_RECORD_MMAP2 21305/21305: [0x561f6d184000(0x1000) @ 0x1000 fe:00 9979526 1907999959]: r-xp /path/t2.bin\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	m = mapping{Addr: 0x7fbb6d367000, Len: 0x2000, Prot: "r-xp", Path: "[vdso]"}
	got = string(appendEvent(nil, &head{pid: 7027}, &event{kind: evMMap2, pid: 7027, m: m}, layoutPlain))
	want = " 7027 PERF_RECORD_MMAP2 7027/7027: [0x7fbb6d367000(0x2000) @ 0 00:00 0 0]: r-xp [vdso]\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func FuzzReadLackey(f *testing.F) {
	seed, err := os.ReadFile("testdata/tiny.lackey")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("I  0400,2\nI  04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := readLackey(bytes.NewReader(data), func(a uint64, s uint32) error {
			if s == 0 || s > 15 {
				t.Fatalf("size %d accepted", s)
			}
			n++
			return nil
		})
		if err == nil && n > bytes.Count(data, []byte("I  ")) {
			t.Fatalf("%d instructions from %d instruction lines", n, bytes.Count(data, []byte("I  ")))
		}
	})
}

func TestAppendHead(t *testing.T) {
	tests := []struct {
		h    *head
		want string
	}{
		{nil, ""},
		{&head{pid: 7027}, " 7027 "},
		{&head{pid: 1632846}, "1632846 "},
		// As perf 6.1 prints -F comm,pid,tid,cpu,time,event.
		{&head{full: true, pid: 7027, comm: "ls", cpu: 1, timeNs: 10078431951000}, "              ls  7027/7027  [001] 10078.431951: "},
		{&head{full: true, pid: 0, comm: "swapper"}, "         swapper     0/0     [000]     0.000000: "},
		{&head{full: true, pid: 7027, comm: "ls", timeNs: 10078432233999, event: "cycles:u"}, "              ls  7027/7027  [000] 10078.432233: cycles:u: "},
	}
	for _, tt := range tests {
		if got := string(appendHead(nil, tt.h)); got != tt.want {
			t.Errorf("appendHead(%+v) = %q, want %q", tt.h, got, tt.want)
		}
	}
}
