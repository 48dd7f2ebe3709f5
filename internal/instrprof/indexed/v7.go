package indexed

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/instrprof"
)

// v7Kinds are the variant bits LLVM 14 knows.
const v7Kinds = instrprof.KindIR | instrprof.KindCS | instrprof.KindEntryFirst | instrprof.KindByteCoverage | instrprof.KindFunctionEntryOnly

// checkVersion refuses versions WriteVersion cannot write, and profiles a
// version-7 reader could not take.
func checkVersion(p *instrprof.Profile, version int) error {
	switch version {
	case Version, PrevVersion:
		return nil
	case OldestVersion:
	default:
		return fmt.Errorf("indexed version %d: profgen writes 13 (clang 22 and later), 12 (clang 19 and later) or 7 (clang 14 and later)", version)
	}
	if k := p.Kind &^ v7Kinds & instrprof.KindMask; k != 0 {
		return fmt.Errorf("indexed version 7: the profile has variant bits %#x that LLVM 14 does not know", uint64(k))
	}
	for _, f := range p.Funcs() {
		if len(f.Bitmap) > 0 || len(f.Sites[instrprof.ValueVTable]) > 0 {
			return fmt.Errorf("indexed version 7: function %s has MC/DC bitmap bytes or vtable value profiles, which LLVM 14 cannot read", f.Name)
		}
	}
	return nil
}

// encodeV7 lays out a version-7 file: magic, version, unused, hash type,
// hash table offset; the summaries; the hash table.
func encodeV7(p *instrprof.Profile) []byte {
	funcs := p.Funcs()
	sum, csSum := NewSummary(), NewSummary()
	for _, f := range funcs {
		if f.Hash&instrprof.CSFlagInHash != 0 {
			csSum.Add(&f.Record)
		} else {
			sum.Add(&f.Record)
		}
	}
	header := []uint64{Magic, OldestVersion | uint64(p.Kind&instrprof.KindMask), 0, 0, 0}
	b := appendWords(nil, header...)
	b = appendWords(b, sum.words()...)
	if p.Kind&instrprof.KindCS != 0 {
		b = appendWords(b, csSum.words()...)
	}
	b, header[4] = emitTable(b, groupByName(funcs), OldestVersion)
	binary.LittleEndian.PutUint64(b[32:], header[4])
	return b
}
