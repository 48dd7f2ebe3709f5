package text_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/text"
)

// sample is a profile with every part the text format has.
func sample() *instrprof.Profile {
	p := instrprof.NewProfile()
	p.Kind = instrprof.KindIR
	recs := []instrprof.Record{
		{Name: "main", Hash: 7, Counts: []uint64{10, 0, 3}},
		{Name: "t.c;helper", Hash: 1, Counts: []uint64{3}, Bitmap: []byte{0x1f, 0}},
		{Name: "main", Hash: 5, Counts: []uint64{1}},
	}
	recs[0].Sites[instrprof.ValueIndirectCall] = [][]instrprof.Value{{{Value: instrprof.NameRef("t.c;helper"), Count: 3}, {Value: 42, Count: 1}}}
	recs[0].Sites[instrprof.ValueMemOPSize] = [][]instrprof.Value{{{Value: 8, Count: 2}}, nil}
	for i := range recs {
		p.Add(&recs[i], 0, 1, instrprof.Origin{})
	}
	return p
}

func TestWriteGolden(t *testing.T) {
	var b bytes.Buffer
	if err := text.Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", "sample.txt"), b.Bytes())
}
