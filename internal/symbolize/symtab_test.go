package symbolize

import (
	"fmt"
	"testing"
)

func TestAddSymtabFunctions(t *testing.T) {
	dwarfFn := &Function{Name: "main", Ranges: [][2]uint64{{0x100, 0x180}}}
	tab := &Table{funcs: funcTable{{Func: dwarfFn, Start: 0x100, End: 0x180, IsEntry: true}}}
	tab.AddSymtabFunctions([]Symbol{
		{Addr: 0x100, Name: "main", Size: 0x80},  // held by DWARF
		{Addr: 0x180, Name: "work", Size: 0x20},  // recovered
		{Addr: 0x180, Name: "work2", Size: 0x20}, // alias: the first name claims it
		{Addr: 0x1a0, Name: "zero", Size: 0},     // no size
		{Addr: 0x1c0, Name: "dup", Size: 0x10},   // one function of two ranges
		{Addr: 0x1e0, Name: "dup", Size: 0x10},
	})
	tests := []struct {
		addr       uint64
		want       string
		fromSymtab bool
	}{
		{0x120, "main", false},
		{0x18f, "work", true},
		{0x1a0, "", false},
		{0x1c4, "dup", true},
		{0x1e8, "dup", true},
		{0x1f0, "", false},
	}
	for _, tt := range tests {
		r := tab.FuncRangeAt(tt.addr)
		switch {
		case tt.want == "" && r != nil:
			t.Errorf("%#x: got %s, want none", tt.addr, r.Func.Name)
		case tt.want != "" && (r == nil || r.Func.Name != tt.want || r.Func.FromSymtab != tt.fromSymtab):
			t.Errorf("%#x: got %+v, want %s (from symtab %v)", tt.addr, r, tt.want, tt.fromSymtab)
		}
	}
	if r := tab.FuncRangeStartingAt(0x180); r == nil || !r.IsEntry {
		t.Errorf("no entry at work's start: %+v", r)
	}
	var names []string
	for _, f := range tab.Functions() {
		names = append(names, f.Name)
	}
	if got := fmt.Sprint(names); got != "[main work dup]" {
		t.Errorf("Functions() = %s", got)
	}
	if n := len(tab.FuncRangeAt(0x1c0).Func.Ranges); n != 2 {
		t.Errorf("dup has %d ranges, want 2", n)
	}
}
