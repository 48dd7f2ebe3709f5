package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
)

// Indexed profiles of versions 1 to 6, which no installed tool writes any
// more, made here by hand from LLVM's description of each version
// (InstrProf.h, ProfVersion): the header of magic, version, an unused word,
// the hash type and the hash table offset; from version 4 a summary after
// it; then the on-disk hash table (one bucket here) keyed by function name.
// An entry holds, for each record of that name, its hash, from version 2
// its counter count, its counters and from version 3 its value profile.
// Version 1 holds one record per name, its counters filling the entry.

type oldRecord struct {
	name   string
	hash   uint64
	counts []uint64
	sites  [][]instrprof.Value // indirect-call sites (version 3 on)
}

func oldRecords(version int) []oldRecord {
	recs := []oldRecord{
		{name: "main", hash: 0x1234, counts: []uint64{100, 7, 93}},
		{name: "foo", hash: 0x99, counts: []uint64{50}},
	}
	if version >= 2 { // a second record of the same name
		recs = append(recs, oldRecord{name: "foo", hash: 0x55, counts: []uint64{1, 2}})
	}
	if version >= 3 {
		recs[0].sites = [][]instrprof.Value{{{Value: instrprof.NameRef("foo"), Count: 50}}, {}}
	}
	return recs
}

// oldIndexed returns the bytes of an indexed profile of the version.
func oldIndexed(version int) []byte {
	var b []byte
	put := func(ws ...uint64) {
		for _, w := range ws {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	put(0x8169666f72706cff, uint64(version), 0, 0, 0) // magic "\xfflprofi\x81", version, unused, MD5, table offset
	if version >= 4 {
		put(6, 0, 2, 6, 100, 100, 93, 250) // 6 fields, no cutoffs: functions, blocks, maxima, total
	}
	entries := oldEntries(version)
	bucket := uint64(len(b))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(entries)))
	for _, e := range entries {
		b = append(b, e...)
	}
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	binary.LittleEndian.PutUint64(b[32:], uint64(len(b)))
	put(1, uint64(len(entries)), bucket)
	return b
}

// oldEntries are the hash-table items, one per name.
func oldEntries(version int) [][]byte {
	var names []string
	byName := map[string][]oldRecord{}
	for _, r := range oldRecords(version) {
		if byName[r.name] == nil {
			names = append(names, r.name)
		}
		byName[r.name] = append(byName[r.name], r)
	}
	var out [][]byte
	for _, name := range names {
		var data []byte
		for _, r := range byName[name] {
			data = binary.LittleEndian.AppendUint64(data, r.hash)
			if version >= 2 {
				data = binary.LittleEndian.AppendUint64(data, uint64(len(r.counts)))
			}
			for _, c := range r.counts {
				data = binary.LittleEndian.AppendUint64(data, c)
			}
			if version >= 3 {
				rec := instrprof.Record{}
				rec.Sites[instrprof.ValueIndirectCall] = r.sites
				data = instrprof.AppendValueData(data, &rec)
			}
		}
		var e []byte
		for _, w := range []uint64{instrprof.NameRef(name), uint64(len(name)), uint64(len(data))} {
			e = binary.LittleEndian.AppendUint64(e, w)
		}
		out = append(out, append(append(e, name...), data...))
	}
	return out
}

// oldIndexedFile writes the version's profile once per test run.
func oldIndexedFile(t *testing.T, version int) string {
	indexedOnce.Do(func() { indexedDir, _ = os.MkdirTemp("", "parity") })
	path := filepath.Join(indexedDir, fmt.Sprintf("v%d.profdata", version))
	if _, err := os.Stat(path); err != nil {
		if err := os.WriteFile(path, oldIndexed(version), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}
