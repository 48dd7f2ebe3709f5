package binary

import (
	"debug/elf"
	stdbinary "encoding/binary"
	"errors"
	"testing"
)

func prog(typ elf.ProgType, flags elf.ProgFlag, vaddr, off uint64) *elf.Prog {
	return &elf.Prog{ProgHeader: elf.ProgHeader{Type: typ, Flags: flags, Vaddr: vaddr, Off: off}}
}

func TestReadLayout(t *testing.T) {
	tests := []struct {
		name                     string
		progs                    []*elf.Prog
		base, textOff, firstLoad uint64
		err                      error
	}{
		{
			name: "non-PIE, separate code (GNU ld default)",
			progs: []*elf.Prog{
				prog(elf.PT_PHDR, elf.PF_R, 0x400040, 0x40),
				prog(elf.PT_LOAD, elf.PF_R, 0x400000, 0),
				prog(elf.PT_LOAD, elf.PF_R|elf.PF_X, 0x401000, 0x1000),
				prog(elf.PT_LOAD, elf.PF_R, 0x402000, 0x2000),
			},
			base: 0x401000, textOff: 0x1000, firstLoad: 0x400000,
		},
		{
			name: "PIE, one RX segment at 0",
			progs: []*elf.Prog{
				prog(elf.PT_LOAD, elf.PF_R|elf.PF_X, 0, 0),
				prog(elf.PT_LOAD, elf.PF_R|elf.PF_W, 0x1df0, 0xdf0),
			},
			base: 0, textOff: 0, firstLoad: 0x1000, // llvm-profgen skips a segment at 0
		},
		{
			name: "lld layout: text not page aligned is rounded down",
			progs: []*elf.Prog{
				prog(elf.PT_LOAD, elf.PF_R, 0, 0),
				prog(elf.PT_LOAD, elf.PF_R|elf.PF_X, 0x1640, 0x640),
				prog(elf.PT_LOAD, elf.PF_R|elf.PF_X, 0x3000, 0x2000),
			},
			base: 0x1000, textOff: 0, firstLoad: 0x1000,
		},
		{
			name:  "no executable segment",
			progs: []*elf.Prog{prog(elf.PT_LOAD, elf.PF_R, 0, 0)},
			err:   ErrNoExecSegment,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := readLayout(tt.progs)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if got := l.exec[0].Vaddr; got != tt.base {
				t.Errorf("preferred base = %#x, want %#x", got, tt.base)
			}
			if got := l.exec[0].Offset; got != tt.textOff {
				t.Errorf("text offset = %#x, want %#x", got, tt.textOff)
			}
			if l.firstLoadable != tt.firstLoad {
				t.Errorf("first loadable = %#x, want %#x", l.firstLoadable, tt.firstLoad)
			}
		})
	}
}

func TestRuntimeBase(t *testing.T) {
	l := layout{exec: []Segment{{Vaddr: 0x401000, Offset: 0x1000}}}
	tests := []struct {
		name        string
		addr, pgoff uint64
		base        uint64
		ok          bool
	}{
		{"text mapping", 0x555555555000, 0x1000, 0x555555555000, true},
		{"read-only mapping before text", 0x555555554000, 0, 0, false},
		{"data mapping after text", 0x555555557000, 0x3000, 0, false},
		{"non-PIE at its preferred address", 0x401000, 0x1000, 0x401000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, ok := runtimeBase(l, tt.addr, tt.pgoff)
			if base != tt.base || ok != tt.ok {
				t.Errorf("runtimeBase(%#x, %#x) = %#x, %v; want %#x, %v", tt.addr, tt.pgoff, base, ok, tt.base, tt.ok)
			}
		})
	}
}

func TestBuildIDNote(t *testing.T) {
	le := []byte{
		4, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 'X', 'Y', 'Z', 0, 0xaa, 0xbb, 0, 0, // another note
		4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 1, 2, 3, 0, // build id, padded
	}
	tests := []struct {
		name string
		data []byte
		want []byte
	}{
		{"second note", le, []byte{1, 2, 3}},
		{"truncated", le[:30], nil},
		{"empty", nil, nil},
		{"huge sizes", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0}, nil},
		{"last note unpadded", le[:39], []byte{1, 2, 3}},
		{"empty descriptor", []byte{4, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0}, nil},
		{"name not GNU", []byte{4, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'X', 0, 7, 0, 0, 0}, nil},
		{"name without its NUL", []byte{3, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 7, 0, 0, 0}, nil},
	}
	be := []byte{0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 3, 'G', 'N', 'U', 0, 0xde, 0xad, 0, 0}
	if got := BuildIDNote(be, stdbinary.BigEndian); string(got) != "\xde\xad" {
		t.Errorf("big-endian: BuildIDNote = %x, want dead", got)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BuildIDNote(tt.data, stdbinary.LittleEndian)
			if string(got) != string(tt.want) {
				t.Errorf("BuildIDNote = %x, want %x", got, tt.want)
			}
		})
	}
}
