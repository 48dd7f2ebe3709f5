package bbaddrmap

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/sectionreader"
	"github.com/profgen/profgen/internal/leb128"
)

// enc builds section bytes.
type enc []byte

func (e enc) b(bs ...byte) enc { return append(e, bs...) }
func (e enc) u16(v uint16) enc { return binary.LittleEndian.AppendUint16(e, v) }
func (e enc) u32(v uint32) enc { return binary.LittleEndian.AppendUint32(e, v) }
func (e enc) u64(v uint64) enc { return binary.LittleEndian.AppendUint64(e, v) }
func (e enc) uleb(vs ...uint64) enc {
	for _, v := range vs {
		e = leb128.AppendUint(e, v)
	}
	return e
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		data enc
		opts Options
		want []Func
	}{
		{
			name: "version 2: offsets from the previous block's end",
			data: enc{}.b(2, 0).u64(0x1000).uleb(2, 0, 0, 6, 8, 3, 2, 4, 1),
			want: []Func{{Version: 2, Ranges: []Range{{Base: 0x1000, Blocks: []Block{
				{ID: 0, Offset: 0, Size: 6, Meta: CanFallThrough}, {ID: 3, Offset: 8, Size: 4, Meta: HasReturn}}}}}},
		},
		{
			name: "version 3: a block's size counts from its last call's end",
			data: enc{}.b(3, 0x20).u64(0x1000).uleb(1, 5, 2, 2, 4, 6, 3, 0),
			want: []Func{{Version: 3, Features: CallSites, Ranges: []Range{{Base: 0x1000, Blocks: []Block{
				{ID: 5, Offset: 2, Size: 13, CallSiteEnds: []uint32{4, 10}}}}}}},
		},
		{
			name: "version 4: hashes",
			data: enc{}.b(4, 0x40).u64(0x1000).uleb(1, 0, 0, 4, 1).u64(0xfeedface),
			want: []Func{{Version: 4, Features: BlockHash, Ranges: []Range{{Base: 0x1000, Blocks: []Block{
				{Size: 4, Meta: HasReturn, Hash: 0xfeedface}}}}}},
		},
		{
			name: "version 5: a 16-bit feature field, ranges restart their offsets, a clone repeats its ID",
			data: enc{}.b(5).u16(0x08).uleb(2).u64(0x1000).uleb(2, 0, 0, 4, 8, 1, 2, 3, 0).u64(0x2000).uleb(1, 1, 1, 2, 3),
			want: []Func{{Version: 5, Features: MultiRange, Ranges: []Range{
				{Base: 0x1000, Blocks: []Block{{ID: 0, Size: 4, Meta: CanFallThrough}, {ID: 1, Offset: 6, Size: 3}}},
				{Base: 0x2000, Blocks: []Block{{ID: 1, Offset: 1, Size: 2, Meta: HasReturn | HasTailCall}}}}}},
		},
		{
			name: "PGO data after the blocks of every range",
			data: enc{}.b(5).u16(0x8f).uleb(2).u64(0x1000).uleb(1, 0, 0, 4, 8).u64(0x2000).uleb(1, 1, 0, 2, 1).
				uleb(7, 100, 90, 2, 1, 0x40000000, 60, 0, 0x40000000, 30, 50, 40, 0),
			want: []Func{{Version: 5, Features: MultiRange | FuncEntryCount | BlockFreq | BranchProb | PostLinkCFG,
				Ranges: []Range{{Base: 0x1000, Blocks: []Block{{Size: 4, Meta: CanFallThrough}}}, {Base: 0x2000, Blocks: []Block{{ID: 1, Size: 2, Meta: HasReturn}}}},
				PGO: &PGO{EntryCount: 7, Blocks: []PGOBlock{
					{Freq: 100, PostLinkFreq: 90, Succs: []Succ{{ID: 1, Prob: 0x40000000, PostLinkFreq: 60}, {ID: 0, Prob: 0x40000000, PostLinkFreq: 30}}},
					{Freq: 50, PostLinkFreq: 40}}}}},
		},
		{
			name: "omitted blocks: the count is read, no entries",
			data: enc{}.b(5).u16(0x11).u64(0x1000).uleb(9, 3).b(5).u16(0).u64(0x2000).uleb(0),
			want: []Func{
				{Version: 5, Features: OmitBlocks | FuncEntryCount, Ranges: []Range{{Base: 0x1000}}, PGO: &PGO{EntryCount: 3}},
				{Version: 5, Ranges: []Range{{Base: 0x2000}}}},
		},
		{
			name: "32-bit addresses",
			data: enc{}.b(2, 0).u32(0x8000).uleb(1, 0, 0, 2, 1),
			opts: Options{AddrSize: 4},
			want: []Func{{Version: 2, Ranges: []Range{{Base: 0x8000, Blocks: []Block{{Size: 2, Meta: HasReturn}}}}}},
		},
		{
			name: "relocated addresses",
			data: enc{}.b(2, 0).u64(0).uleb(0).b(2, 0).u64(0).uleb(0),
			opts: Options{Reloc: func(off int) (uint64, bool) { return uint64(off) * 0x100, true }},
			want: []Func{{Version: 2, Ranges: []Range{{Base: 0x200}}}, {Version: 2, Ranges: []Range{{Base: 0xd00}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.data, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		data enc
		want string
	}{
		{"version 1", enc{}.b(1, 0), ".llvm_bb_addr_map+0x0: unsupported version 1: profgen reads versions 2 to 5, which clang 19 to 22 write with -fbasic-block-address-map"},
		{"version 6 after a good function", enc{}.b(2, 0).u64(0).uleb(0).b(6), ".llvm_bb_addr_map+0xb: unsupported version 6"},
		{"unknown feature bit", enc{}.b(5).u16(0x100), ".llvm_bb_addr_map+0x1: unknown feature bits 0x100"},
		{"call sites before version 3", enc{}.b(2, 0x20), ".llvm_bb_addr_map+0x1: call-site offsets need version 3, not 2"},
		{"hashes before version 4", enc{}.b(3, 0x40), ".llvm_bb_addr_map+0x1: block hashes need version 4, not 3"},
		{"post-link counts before version 5", enc{}.b(4, 0x80), ".llvm_bb_addr_map+0x1: post-link counts need version 5, not 4"},
		{"truncated feature field", enc{}.b(5, 0), ".llvm_bb_addr_map+0x1: truncated features: 1 of 2 bytes"},
		{"no ranges", enc{}.b(5).u16(8).uleb(0), ".llvm_bb_addr_map+0x3: no ranges"},
		{"truncated address", enc{}.b(2, 0, 1, 2, 3), ".llvm_bb_addr_map+0x2: truncated address: 3 of 8 bytes"},
		{"absurd block count", enc{}.b(2, 0).u64(0).uleb(0xffffffff), ".llvm_bb_addr_map+0xf: truncated block ID"},
		{"block count over 32 bits", enc{}.b(2, 0).u64(0).uleb(1 << 32), ".llvm_bb_addr_map+0xa: block count 4294967296 out of range (max 4294967295)"},
		{"absurd range count", enc{}.b(5).u16(8).uleb(0xffffffff), ".llvm_bb_addr_map+0x8: truncated address: 0 of 8 bytes"},
		{"absurd call-site count", enc{}.b(5).u16(0x20).u64(0).uleb(1, 0, 0, 0xffffffff), ".llvm_bb_addr_map+0x13: truncated call-site end offset"},
		{"unknown metadata bit", enc{}.b(2, 0).u64(0).uleb(1, 0, 0, 1, 0x20), ".llvm_bb_addr_map+0xe: unknown block metadata bits 0x20"},
		{"truncated hash", enc{}.b(4, 0x40).u64(0).uleb(1, 0, 0, 1, 1).b(1, 2), ".llvm_bb_addr_map+0xf: truncated block hash: 2 of 8 bytes"},
		{"absurd successor count", enc{}.b(2, 4).u64(0).uleb(1, 0, 0, 1, 1).uleb(1 << 60), ".llvm_bb_addr_map+0x18: truncated successor ID"},
		{"ULEB over 64 bits", enc{}.b(2, 0).u64(0).b(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), ".llvm_bb_addr_map+0xa: block count: ULEB128 overflows 64 bits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.data, Options{})
			var fe *sectionreader.FormatError
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

func TestNoMap(t *testing.T) {
	_, err := Open("../testdata/clang-pie.elf")
	if !errors.Is(err, ErrNoMap) || !strings.Contains(err.Error(), "-fbasic-block-address-map") {
		t.Errorf("got %v", err)
	}
}
