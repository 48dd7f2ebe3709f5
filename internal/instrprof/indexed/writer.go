// Package indexed reads and writes LLVM indexed instrumentation profiles
// (.profdata). The writer produces version 13, what llvm-profdata-22
// writes (12 and 7 on request, for clang 19–21 and 14): header, profile summaries, an on-disk chained hash table keyed by
// the MD5 of function names, binary ids and the vtable names. The
// reader accepts versions 1 to 13, so merges can be chained.
package indexed

import (
	"cmp"
	"encoding/binary"
	"io"
	"maps"
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/densemap"
	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/memprof"
	"github.com/profgen/profgen/internal/instrprof/ondisk"
	"github.com/profgen/profgen/internal/profformat"
)

// Magic is the indexed profile magic ("\xfflprofi\x81" on disk).
const Magic = profformat.IndexedMagic

// Version is the format version the writer produces by default. Version
// 13 is 12's layout; it tells clang 22 that front-end function hashes are
// of its version 4, which clears their top 4 bits (FrontEndHashes).
const Version = 13

// PrevVersion is the version clang 19 to 21 read: 13's bytes but for the
// version word (llvm-profdata-19 writes it).
const PrevVersion = 12

// OldestVersion is the oldest version WriteVersion writes: what LLVM 14
// and 15 read (clang-14's llvm-profdata writes it).
const OldestVersion = 7

// ClangReads names the oldest clang that reads an indexed version.
var ClangReads = map[int]int{7: 14, 12: 19, 13: 22}

const headerWords = 9

// Write writes p as an indexed profile of version Version.
func Write(w io.Writer, p *instrprof.Profile) error {
	return WriteVersion(w, p, Version)
}

// WriteVersion writes p as an indexed profile of version 13, 12 or 7. Version
// 7 has a 5-word header, no bitmap bytes in records and no sections after
// the hash table; it cannot hold what LLVM 14 lacks.
func WriteVersion(w io.Writer, p *instrprof.Profile, version int) error {
	if err := checkVersion(p, version); err != nil {
		return err
	}
	if version == OldestVersion {
		_, err := w.Write(encodeV7(p))
		return err
	}
	funcs := p.Funcs()
	groups := groupByName(funcs)
	sum, csSum := NewSummary(), NewSummary()
	for _, f := range funcs {
		if f.Hash&instrprof.CSFlagInHash != 0 {
			csSum.Add(&f.Record)
		} else {
			sum.Add(&f.Record)
		}
	}
	var b []byte
	header := make([]uint64, headerWords)
	header[0] = Magic
	header[1] = uint64(version) | uint64(p.Kind&instrprof.KindMask)
	b = appendWords(b, header...)
	b = appendWords(b, sum.words()...)
	if p.Kind&instrprof.KindCS != 0 {
		b = appendWords(b, csSum.words()...)
	}
	b, header[4] = emitTable(b, groups, version)
	if p.Kind&instrprof.KindMemProf != 0 {
		header[5] = uint64(len(b))
		var err error
		if b, err = memprof.AppendSection(b, 0, cmp.Or(p.MemProf, memprof.NewData()), p.MemProfWrite); err != nil {
			return err
		}
	}
	header[6] = uint64(len(b))
	b = appendBinaryIDs(b, p.BinaryIDs)
	header[8] = uint64(len(b))
	b = appendVTableNames(b, p.VTableNames)
	if p.Kind&instrprof.KindTemporal != 0 {
		header[7] = uint64(len(b))
		b = appendTraces(b, p)
	}
	for i, v := range header {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	_, err := w.Write(b)
	return err
}

// appendVTableNames appends the vtable names section: the size of a
// names chunk (zlib-compressed, as llvm-profdata writes it where zlib is
// available), the chunk, zero padding to 8 bytes. Without names (llvm
// keeps them only with --keep-vtable-symbols) the size is 0. The names
// are in sorted order; llvm's are in its hash set's order, which its
// readers do not depend on.
func appendVTableNames(b []byte, names map[string]bool) []byte {
	if len(names) == 0 {
		return appendWords(b, 0)
	}
	chunk := instrprof.EncodeNames(slices.Sorted(maps.Keys(names)), true)
	b = appendWords(b, uint64(len(chunk)))
	b = append(b, chunk...)
	return append(b, make([]byte, pad8(len(chunk)))...)
}

// pad8 is the number of zero bytes that pad n bytes to a multiple of 8.
func pad8(n int) int { return (8 - n%8) % 8 }

func appendWords(b []byte, ws ...uint64) []byte {
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// group is the records of one function name: one hash-table entry.
type group struct {
	name string
	hash uint64
	recs []*instrprof.Func
}

func groupByName(funcs []*instrprof.Func) []*group {
	var out []*group
	for _, f := range funcs {
		if n := len(out); n > 0 && out[n-1].name == f.Name {
			out[n-1].recs = append(out[n-1].recs, f)
			continue
		}
		out = append(out, &group{name: f.Name, hash: instrprof.NameRef(f.Name), recs: []*instrprof.Func{f}})
	}
	for _, g := range out {
		if len(g.recs) > 1 {
			g.recs = denseMapOrder(g.recs)
		}
	}
	return out
}

// denseMapOrder orders the records of one name as llvm-profdata-19 emits
// them: in the bucket order of the SmallDenseMap keyed by CFG hash (4
// inline buckets) that holds them, the records inserted in hash order.
// The hash (densemap.Hash) was found to match llvm-profdata-19's order
// on every name with 2 to 50 CFG hashes tried.
func denseMapOrder(recs []*instrprof.Func) []*instrprof.Func {
	keys := make([]uint64, len(recs))
	for i, f := range recs {
		keys[i] = f.Hash
	}
	out := recs[:0:0]
	for _, i := range densemap.Order(keys, 4) {
		out = append(out, recs[i])
	}
	return out
}

// emitTable appends the hash table of the function records (see
// ondisk.Emit: llvm's layout) and returns the index's offset.
func emitTable(b []byte, groups []*group, version int) ([]byte, uint64) {
	return ondisk.Emit(b, 0, len(groups), func(i int) uint64 { return groups[i].hash },
		func(b []byte, i int) []byte { return appendEntry(b, groups[i], version) })
}

func appendEntry(b []byte, g *group, version int) []byte {
	size := 0
	for _, f := range g.recs {
		size += 8*(3+len(f.Counts)+len(f.Bitmap)) + instrprof.ValueDataSize(&f.Record)
		if version < 11 {
			size -= 8
		}
	}
	b = appendWords(b, uint64(len(g.name)), uint64(size))
	b = append(b, g.name...)
	for _, f := range g.recs {
		b = appendWords(b, f.Hash, uint64(len(f.Counts)))
		b = appendWords(b, f.Counts...)
		if version >= 11 {
			b = appendWords(b, uint64(len(f.Bitmap)))
		}
		for _, x := range f.Bitmap {
			b = appendWords(b, uint64(x))
		}
		b = instrprof.AppendValueData(b, &f.Record)
	}
	return b
}

// appendBinaryIDs appends the sorted, de-duplicated binary ids section.
func appendBinaryIDs(b []byte, ids map[string]bool) []byte {
	sorted := make([]string, 0, len(ids))
	size := 0
	for id := range ids {
		sorted = append(sorted, id)
		size += 8 + len(id) + (8-len(id)%8)%8
	}
	sort.Strings(sorted)
	b = appendWords(b, uint64(size))
	for _, id := range sorted {
		b = appendWords(b, uint64(len(id)))
		b = append(b, id...)
		b = append(b, make([]byte, (8-len(id)%8)%8)...)
	}
	return b
}

// appendTraces appends the temporal profile traces section: count, stream
// size, then each trace's weight, length and name references.
func appendTraces(b []byte, p *instrprof.Profile) []byte {
	b = appendWords(b, uint64(len(p.Traces)), p.TraceStream)
	for _, t := range p.Traces {
		b = appendWords(b, t.Weight, uint64(len(t.Refs)))
		b = appendWords(b, t.Refs...)
	}
	return b
}
