package fpskid

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
)

// skidELF is testdata/skid.elf (build.sh): leaves without frames, a tail
// call, a function calling another from two places.
func skidELF(t *testing.T) *binary.File {
	t.Helper()
	f, err := binary.Open("testdata/skid.elf", binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func entry(t *testing.T, f *binary.File, name string) uint64 {
	t.Helper()
	for _, s := range f.FuncSymbols() {
		if s.Name == name {
			return s.Addr
		}
	}
	for _, s := range f.PLTSymbols() {
		if s.Name == name {
			return s.Addr
		}
	}
	t.Fatalf("no function %s", name)
	return 0
}

// callSite returns the caller frame of the first call (or tail call) in
// function from to function to: the address of its last byte.
func callSite(t *testing.T, f *binary.File, from, to string) uint64 {
	t.Helper()
	c := newCode(f)
	for _, s := range c.callSites(c.symbolAt(entry(t, f, from))) {
		if !s.indirect && s.target == entry(t, f, to) {
			return s.at
		}
	}
	t.Fatalf("%s does not call %s", from, to)
	return 0
}

func loc(obj int32, addr uint64) aggregate.Loc { return aggregate.Loc{Obj: obj, Addr: addr} }

func TestRepair(t *testing.T) {
	f := skidELF(t)
	at := func(name string, off uint64) uint64 { return entry(t, f, name) + off }
	call := func(from, to string) uint64 { return callSite(t, f, from, to) }
	const bin, libc, kernel, unknown = 0, 1, 2, 3
	tests := []struct {
		name   string
		locs   []aggregate.Loc
		want   []aggregate.Loc // nil: unchanged
		siteOK bool            // every inferred frame has its call site
	}{
		{name: "frameless leaf skips its caller",
			locs:   []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, call("main", "run_frameless"))},
			want:   []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, call("run_frameless", "frameless")), loc(bin, call("main", "run_frameless"))},
			siteOK: true},
		{name: "frameless leaf under its caller",
			locs: []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, call("run_frameless", "frameless")), loc(bin, call("main", "run_frameless"))}},
		{name: "prologue: push",
			locs:   []aggregate.Loc{loc(bin, at("tiny", 0)), loc(bin, call("main", "run_tiny"))},
			want:   []aggregate.Loc{loc(bin, at("tiny", 0)), loc(bin, call("run_tiny", "tiny")), loc(bin, call("main", "run_tiny"))},
			siteOK: true},
		{name: "prologue: mov",
			locs:   []aggregate.Loc{loc(bin, at("tiny", 1)), loc(bin, call("main", "run_tiny"))},
			want:   []aggregate.Loc{loc(bin, at("tiny", 1)), loc(bin, call("run_tiny", "tiny")), loc(bin, call("main", "run_tiny"))},
			siteOK: true},
		{name: "body: frame set",
			locs: []aggregate.Loc{loc(bin, at("tiny", 4)), loc(bin, call("run_tiny", "tiny")), loc(bin, call("main", "run_tiny"))}},
		{name: "epilogue: ret after pop",
			locs:   []aggregate.Loc{loc(bin, at("tiny", 0x17)), loc(bin, call("main", "run_tiny"))},
			want:   []aggregate.Loc{loc(bin, at("tiny", 0x17)), loc(bin, call("run_tiny", "tiny")), loc(bin, call("main", "run_tiny"))},
			siteOK: true},
		{name: "tail call and frameless leaf",
			locs: []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, call("main", "run_tail"))},
			want: []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, call("via_tail", "frameless")),
				loc(bin, call("run_tail", "via_tail")), loc(bin, call("main", "run_tail"))},
			siteOK: true},
		{name: "two call sites: the caller without its site",
			locs: []aggregate.Loc{loc(bin, at("tiny", 0)), loc(bin, call("main", "run_two"))},
			want: []aggregate.Loc{loc(bin, at("tiny", 0)), loc(unknown, at("run_two", 0)), loc(bin, call("main", "run_two"))}},
		{name: "kernel frames first",
			locs: []aggregate.Loc{loc(kernel, 0xffffffff81000000), loc(bin, at("frameless", 0x10)), loc(bin, call("main", "run_frameless"))},
			want: []aggregate.Loc{loc(kernel, 0xffffffff81000000), loc(bin, at("frameless", 0x10)),
				loc(bin, call("run_frameless", "frameless")), loc(bin, call("main", "run_frameless"))},
			siteOK: true},
		{name: "libc leaf under a PLT call",
			locs: []aggregate.Loc{loc(libc, 0x1234), loc(bin, call("main", "strtol@plt"))}},
		{name: "libc leaf under another call",
			locs: []aggregate.Loc{loc(libc, 0x1234), loc(bin, call("main", "run_tiny"))},
			want: []aggregate.Loc{loc(libc, 0x1234), loc(unknown, at("run_tiny", 0)), loc(bin, call("main", "run_tiny"))}},
		{name: "caller frame is no call",
			locs: []aggregate.Loc{loc(bin, at("frameless", 0x10)), loc(bin, at("main", 0))}},
	}
	for _, tt := range tests {
		for _, pre := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/precheck=%v", tt.name, pre), func(t *testing.T) {
				counts := &aggregate.StackCounts{
					Objects: []aggregate.Object{{Path: "skid.elf", Binary: 0}, {Path: "libc.so.6", Binary: -1},
						{Path: aggregate.KernelDSO, Binary: -1, Kernel: true}},
					Stacks: []*aggregate.Stack{{Locs: slices.Clone(tt.locs), Count: 3, Period: 30}},
				}
				st := repair(counts, []*binary.File{f}, pre)
				want := tt.want
				if want == nil {
					want = tt.locs
				}
				if got := counts.Stacks[0].Locs; !slices.Equal(got, want) {
					t.Errorf("stack = %x\nwant    %x", got, want)
				}
				if tt.want != nil && len(counts.Objects) > unknown && !counts.Objects[unknown].UnknownSite {
					t.Errorf("object %d = %+v, want the unknown-site object", unknown, counts.Objects[unknown])
				}
				wantStats := Stats{}
				if tt.want != nil {
					wantStats.Repaired = 3
					if !tt.siteOK {
						wantStats.SiteUnknown = 3
					}
				}
				if st != wantStats {
					t.Errorf("stats = %+v, want %+v", st, wantStats)
				}
			})
		}
	}
}

// TestRepairMerges: a stack that becomes another one after the repair is
// merged with it.
func TestRepairMerges(t *testing.T) {
	f := skidELF(t)
	leaf := entry(t, f, "frameless") + 0x10
	inner, outer := callSite(t, f, "run_frameless", "frameless"), callSite(t, f, "main", "run_frameless")
	counts := &aggregate.StackCounts{
		Objects: []aggregate.Object{{Path: "skid.elf", Binary: 0}},
		Stacks: []*aggregate.Stack{
			{Locs: []aggregate.Loc{loc(0, leaf), loc(0, outer)}, Count: 2, Period: 20},
			{Locs: []aggregate.Loc{loc(0, leaf), loc(0, inner), loc(0, outer)}, Count: 5, Period: 50},
		},
	}
	Repair(counts, []*binary.File{f}, nil)
	if len(counts.Stacks) != 1 || counts.Stacks[0].Count != 7 || counts.Stacks[0].Period != 70 {
		t.Fatalf("stacks after repair: %+v, want one of 7 samples", counts.Stacks)
	}
}

func TestX86FrameOp(t *testing.T) {
	tests := []struct {
		b    []byte
		want frameOp
	}{
		{[]byte{0x55}, opPushBP},
		{[]byte{0x48, 0x89, 0xe5}, opMovSPBP},
		{[]byte{0x48, 0x8b, 0xec}, opMovSPBP},
		{[]byte{0x5d}, opPopBP},
		{[]byte{0xc9}, opLeave},
		{[]byte{0x48, 0x89, 0xe4}, opNone}, // mov %rsp,%rsp
		{[]byte{0x41, 0x55}, opNone},       // push %r13
	}
	for _, tt := range tests {
		if got := x86FrameOp(tt.b); got != tt.want {
			t.Errorf("x86FrameOp(% x) = %d, want %d", tt.b, got, tt.want)
		}
	}
}

func TestX86Target(t *testing.T) {
	tests := []struct {
		b    []byte
		end  uint64
		want uint64
		ok   bool
	}{
		{[]byte{0xe8, 0x10, 0, 0, 0}, 0x1000, 0x1010, true},                   // call rel32
		{[]byte{0xe9, 0xf0, 0xff, 0xff, 0xff}, 0x1000, 0xff0, true},           // jmp rel32 back
		{[]byte{0xeb, 0xfe}, 0x1000, 0xffe, true},                             // jmp rel8
		{[]byte{0x74, 0x02}, 0x1000, 0x1002, true},                            // je rel8
		{[]byte{0x0f, 0x85, 0, 1, 0, 0}, 0x1000, 0x1100, true},                // jne rel32
		{[]byte{0xf2, 0xe9, 0, 0, 0, 0}, 0x1000, 0x1000, true},                // bnd jmp
		{[]byte{0xff, 0xd0}, 0x1000, 0, false},                                // call *%rax
		{[]byte{0x3e, 0xff, 0x24, 0xc5, 0, 0, 0, 0}, 0x1000, 0, false},        // notrack jmp *(,%rax,8)
		{[]byte{0x41, 0xff, 0x14, 0x24}, 0x1000, 0, false},                    // call *(%r12)
		{[]byte{0x67, 0xe8, 0x00, 0x01, 0x00, 0x00}, 0x2000, 0x2100, true},    // addr32 call
		{[]byte{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, 0x1000, 0, false},        // nopw
		{[]byte{0xe8, 0, 0, 0, 0x80}, 0x100000000, 0x100000000 - 1<<31, true}, // most negative rel32
	}
	for _, tt := range tests {
		got, ok := x86Target(tt.b, tt.end)
		if got != tt.want || ok != tt.ok {
			t.Errorf("x86Target(% x, %#x) = %#x, %v; want %#x, %v", tt.b, tt.end, got, ok, tt.want, tt.ok)
		}
	}
}

// TestEstablished: the frame state before instructions of skid.elf,
// following control flow: run_two sets its frame up only after an early
// exit, whose block lies after the main return.
func TestEstablished(t *testing.T) {
	f := skidELF(t)
	c := newCode(f)
	tests := []struct {
		fn   string
		off  uint64
		want bool
	}{
		{"tiny", 0, false},    // push %rbp
		{"tiny", 1, false},    // mov %rsp,%rbp
		{"tiny", 4, true},     // body
		{"tiny", 0x16, true},  // pop %rbp
		{"tiny", 0x17, false}, // ret
		{"frameless", 0x10, false},
		{"run_two", 0, false},    // test before the prologue
		{"run_two", 0x20, true},  // the loop
		{"run_two", 0x4c, false}, // ret after pop %rbp
		{"run_two", 0x4d, false}, // the early exit, after the main return
		{"run_two", 0x4f, false}, // its ret
	}
	for _, tt := range tests {
		addr := entry(t, f, tt.fn) + tt.off
		if got := c.established(c.funcAt(addr), addr); got != tt.want {
			t.Errorf("%s+%#x: established = %v, want %v", tt.fn, tt.off, got, tt.want)
		}
	}
}

// TestRepairGuesses: where the code leaves two call sites, the stacks that
// needed no repair choose: the samples go to the sites seen calling the
// callee, in proportion.
func TestRepairGuesses(t *testing.T) {
	f := skidELF(t)
	c := newCode(f)
	var sites []uint64 // run_two's two calls of tiny
	for _, s := range c.callSites(c.symbolAt(entry(t, f, "run_two"))) {
		if s.target == entry(t, f, "tiny") {
			sites = append(sites, s.at)
		}
	}
	if len(sites) != 2 {
		t.Fatalf("run_two calls tiny from %d sites, want 2", len(sites))
	}
	body, prologue, outer := entry(t, f, "tiny")+4, entry(t, f, "tiny"), callSite(t, f, "main", "run_two")
	counts := &aggregate.StackCounts{
		Objects: []aggregate.Object{{Path: "skid.elf", Binary: 0}},
		Stacks: []*aggregate.Stack{
			{Locs: []aggregate.Loc{loc(0, body), loc(0, sites[0]), loc(0, outer)}, Count: 10},
			{Locs: []aggregate.Loc{loc(0, body), loc(0, sites[1]), loc(0, outer)}, Count: 30},
			{Locs: []aggregate.Loc{loc(0, prologue), loc(0, outer)}, Count: 1},
			{Locs: []aggregate.Loc{loc(0, prologue+1), loc(0, outer)}, Count: 1},
			{Locs: []aggregate.Loc{loc(0, entry(t, f, "tiny")+0x17), loc(0, outer)}, Count: 1},
			{Locs: []aggregate.Loc{loc(0, entry(t, f, "tiny")+0x16), loc(0, sites[1]), loc(0, outer)}, Count: 1},
		},
	}
	st := Repair(counts, []*binary.File{f}, nil)
	if st.SiteUnknown != 0 || st.Repaired != 3 {
		t.Errorf("stats %+v, want 3 repaired, all with a site", st)
	}
	got := map[uint64]uint64{}
	for _, s := range counts.Stacks {
		if len(s.Locs) != 3 || s.Locs[2] != loc(0, outer) {
			t.Errorf("stack %x", s.Locs)
			continue
		}
		got[s.Locs[1].Addr] += s.Count
	}
	// 3 repaired samples over sites seen 10 and 31 times: 1 and 2.
	if want := map[uint64]uint64{sites[0]: 11, sites[1]: 33}; !maps.Equal(got, want) {
		t.Errorf("samples by site %v, want %v", got, want)
	}
}

// repair is Repair, with a Prechecker handed the stacks first when
// precheck is set: the stacks come out the same.
func repair(counts *aggregate.StackCounts, bins []*binary.File, precheck bool) Stats {
	if !precheck {
		return Repair(counts, bins, nil)
	}
	pre := NewPrechecker(bins)
	pre.Add(counts.Stacks, counts.Objects)
	return Repair(counts, bins, pre)
}
