package addrspace

import (
	"fmt"
	"testing"

	"github.com/profgen/profgen/internal/record"
)

// textSegment is a binary's executable PT_LOAD.
type textSegment struct {
	name               string
	vaddr, off, filesz uint64
	pie                bool
}

// kernelMapping is the mapping the kernel's ELF loader makes of seg with
// pages of pageSize bytes at load bias bias (elf_map: the segment's start
// and file offset rounded down to the page, the end rounded up).
func kernelMapping(seg textSegment, pageSize, bias uint64) record.Mmap {
	start := (bias + seg.vaddr) &^ (pageSize - 1)
	end := (bias + seg.vaddr + seg.filesz + pageSize - 1) &^ (pageSize - 1)
	return record.Mmap{Addr: start, Len: end - start, PgOff: seg.off - (bias+seg.vaddr)&(pageSize-1), Prot: "r-xp", V2: true}
}

// TestRuntimeBasePageSizes: on kernels with pages of 4, 16 and 64 KiB
// (AArch64 has all three), a text segment's runtime addresses map to its
// link addresses, the base coming from the mapping's address and file
// offset. The binary's preferred base and text offset are rounded to
// 4 KiB as llvm-profgen 19 rounds them; with larger pages the text
// mapping can start earlier in the file (lld puts .rodata before .text, so
// the text begins inside a 64 KiB page), where llvm-profgen 19, which
// wants the mapping's page offset to equal the text offset, finds no base
// ("File offset not found", LLVM #164773, #217887).
func TestRuntimeBasePageSizes(t *testing.T) {
	layouts := []textSegment{
		{name: "GNU ld AArch64 default (text in the first segment)", vaddr: 0, off: 0, filesz: 0x15cc, pie: true},
		{name: "GNU ld -z separate-code, 64 KiB max page", vaddr: 0x10000, off: 0x10000, filesz: 0x2345, pie: true},
		{name: "GNU ld x86-64 separate-code, 4 KiB max page", vaddr: 0x1000, off: 0x1000, filesz: 0x1a00, pie: true},
		{name: "lld AArch64, .rodata first", vaddr: 0x4f640, off: 0x3f640, filesz: 0x12a000, pie: true},
		{name: "lld AArch64, small", vaddr: 0x10640, off: 0x640, filesz: 0x900, pie: true},
		{name: "Go AArch64 (non-PIE at 0x10000)", vaddr: 0x10000, off: 0, filesz: 0x74a34},
		{name: "non-PIE at 0x400000", vaddr: 0x401000, off: 0x1000, filesz: 0x3000},
	}
	for _, seg := range layouts {
		bin := Binary{Path: "/bin/app", PreferredBase: seg.vaddr &^ 0xfff, TextOffset: seg.off &^ 0xfff}
		for _, page := range []uint64{0x1000, 0x4000, 0x10000} {
			if (seg.vaddr-seg.off)%page != 0 {
				continue // not loadable with these pages (p_vaddr and p_offset differ in the page)
			}
			bias := uint64(0)
			if seg.pie {
				bias = 0x5555_5555_0000 // aligned to every page size
			}
			t.Run(fmt.Sprintf("%s/%dK", seg.name, page>>10), func(t *testing.T) {
				m := kernelMapping(seg, page, bias)
				base, ok := RuntimeBase(bin, m)
				if !ok {
					t.Fatalf("mapping %#x(%#x) @ %#x not taken for the text segment", m.Addr, m.Len, m.PgOff)
				}
				for _, link := range []uint64{seg.vaddr, seg.vaddr + seg.filesz/2, seg.vaddr + seg.filesz - 4} {
					if got := Canonical(bin, base, bias+link); got != link {
						t.Errorf("runtime %#x: canonical %#x, want %#x (mapping %#x @ %#x)", bias+link, got, link, m.Addr, m.PgOff)
					}
				}
				// The page offset is the text offset (llvm-profgen 19's only
				// case) unless the text starts 4 KiB or more into a page.
				if differs := m.PgOff != bin.TextOffset; differs != (seg.off%page >= 0x1000) {
					t.Errorf("page offset %#x, text offset %#x", m.PgOff, bin.TextOffset)
				} else if differs {
					t.Logf("page offset %#x, text offset %#x: llvm-profgen 19 finds no base", m.PgOff, bin.TextOffset)
				}
			})
		}
	}
}
