package memprof

import (
	"fmt"
	"slices"
	"testing"
)

// readRadix reconstructs the stack at pos as llvm's reader does: the
// length, then frames leaf first, a negative value being a jump forward
// by its magnitude to the frames shared with another stack.
func readRadix(arr []uint32, pos uint32) []uint32 {
	n := arr[pos]
	var out []uint32
	for i := pos + 1; uint32(len(out)) < n; i++ {
		if int32(arr[i]) < 0 {
			i += uint32(-int32(arr[i]))
		}
		out = append(out, arr[i])
	}
	return out
}

func TestRadixTreeRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		stacks [][]uint64 // functions, leaf first
	}{
		{"one stack", [][]uint64{{1, 2, 3}}},
		{"shared root", [][]uint64{{4, 2, 1}, {5, 2, 1}, {6, 1}}},
		{"prefix of another", [][]uint64{{2, 1}, {3, 2, 1}, {1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewData()
			var ids []StackID
			for _, s := range tc.stacks {
				var frames []FrameID
				for _, fn := range s {
					frames = append(frames, d.AddFrame(Frame{Function: fn}))
				}
				ids = append(ids, d.AddStack(frames))
			}
			w := &sectionWriter{d: d}
			hist := frameHistogram(d)
			index := w.frameArray(hist)
			arr, pos := radixTree(d, hist, index)
			for i, id := range ids {
				var want []uint32
				for _, f := range d.Stacks[id] {
					want = append(want, index[f])
				}
				if got := readRadix(arr, pos[id]); !slices.Equal(got, want) {
					t.Errorf("stack %d: read %v, want %v (array %v)", i, got, want, arr)
				}
			}
		})
	}
}

// section writes d as a MemProf section of the version.
func section(t testing.TB, d *Data, version int) []byte {
	b, err := AppendSection(nil, 0, d, WriteOptions{Version: version, FullSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sampleData() *Data {
	d := NewData()
	leaf := d.AddFrame(Frame{Function: 7, LineOffset: 1, Column: 3, Inline: true})
	caller := d.AddFrame(Frame{Function: 9, LineOffset: 2, Column: 5})
	s := d.AddStack([]FrameID{leaf, caller})
	m := MIB{Present: AllPresent}
	m.Values[TagAllocCount-1], m.Values[TagTotalSize-1] = 2, 40
	d.Record(7).AllocSites = []AllocSite{{Stack: s, Info: m}}
	d.Record(9).AllocSites = []AllocSite{{Stack: s, Info: m}}
	d.Record(9).CallSites = []CallSite{{Stack: d.AddStack([]FrameID{caller})}}
	return d
}

func TestSectionRoundTrip(t *testing.T) {
	for _, v := range []int{2, 3, 4} {
		t.Run(fmt.Sprint("version ", v), func(t *testing.T) {
			want := sampleData()
			s, err := ReadSection(section(t, want, v), 0)
			if err != nil {
				t.Fatal(err)
			}
			if s.Version != v || len(s.Data.Records) != 2 || s.Summary.Contexts != 1 {
				t.Fatalf("read version %d, %d records, summary %+v", s.Version, len(s.Data.Records), s.Summary)
			}
			for _, r := range want.Records {
				got := s.Data.Record(r.GUID)
				if len(got.AllocSites) != len(r.AllocSites) || len(got.CallSites) != len(r.CallSites) {
					t.Fatalf("record %d: %+v", r.GUID, got)
				}
				if a, b := s.Data.StackFrames(got.AllocSites[0].Stack), want.StackFrames(r.AllocSites[0].Stack); !slices.Equal(a, b) {
					t.Errorf("record %d: stack %v, want %v", r.GUID, a, b)
				}
				if got.AllocSites[0].Info.Get(TagTotalSize) != 40 {
					t.Errorf("record %d: MIB %v", r.GUID, got.AllocSites[0].Info.Values)
				}
			}
		})
	}
}

func FuzzReadSection(f *testing.F) {
	for _, v := range []int{2, 3, 4} {
		f.Add(section(f, sampleData(), v))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadSection(b, 0)
		if err == nil && s.Data == nil {
			t.Fatal("no data and no error")
		}
	})
}
