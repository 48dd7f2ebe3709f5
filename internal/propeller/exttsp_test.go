package propeller

import (
	"bytes"
	"reflect"
	"testing"
)

func TestExtTSP(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes []uint64
		jumps []jump
		want  []int
	}{
		{"straight", []uint64{10, 10, 10}, []jump{{src: 0, dst: 1, count: 5}, {src: 1, dst: 2, count: 5}}, []int{0, 1, 2}},
		{"hot side of a diamond", []uint64{10, 10, 10, 10},
			[]jump{{src: 0, dst: 1, count: 10}, {src: 0, dst: 2, count: 90}, {src: 1, dst: 3, count: 10}, {src: 2, dst: 3, count: 90}}, []int{0, 2, 3, 1}},
		{"entry first", []uint64{10, 10, 10}, []jump{{src: 0, dst: 2, count: 1}, {src: 1, dst: 2, count: 1000}, {src: 2, dst: 1, count: 999}}, []int{0, 1, 2}},
		{"loop rotated: the latch falls through to the header", []uint64{8, 8, 40, 8},
			[]jump{{src: 0, dst: 1, count: 1}, {src: 1, dst: 2, count: 100}, {src: 2, dst: 1, count: 99}, {src: 1, dst: 3, count: 1}}, []int{0, 2, 1, 3}},
		{"unconnected by density", []uint64{10, 10, 10}, nil, []int{0, 2, 1}},
	} {
		counts := make([]uint64, len(tc.sizes))
		for _, j := range tc.jumps {
			counts[j.dst] += j.count
		}
		if tc.jumps == nil {
			counts = []uint64{1, 1, 5}
		}
		got := extTSP(&layoutGraph{sizes: tc.sizes, counts: counts, jumps: tc.jumps})
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: extTSP = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestC3(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fs    []c3Func
		calls map[[2]int]uint64
		want  []int
	}{
		{"callee after its caller", []c3Func{{size: 10, weight: 100}, {size: 10, weight: 10}}, map[[2]int]uint64{{1, 0}: 50}, []int{1, 0}},
		{"joins its heavy caller, not its rare one", []c3Func{{size: 10, weight: 100}, {size: 10, weight: 10}, {size: 10, weight: 50}}, map[[2]int]uint64{{1, 0}: 5, {2, 0}: 95}, []int{2, 0, 1}},
		{"heaviest caller wins", []c3Func{{size: 10, weight: 100}, {size: 10, weight: 10}, {size: 10, weight: 50}}, map[[2]int]uint64{{1, 0}: 60, {2, 0}: 40}, []int{1, 0, 2}},
		{"no calls: by density", []c3Func{{size: 10, weight: 1}, {size: 10, weight: 10}}, nil, []int{1, 0}},
	} {
		if got := c3Order(tc.fs, tc.calls); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: c3Order = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzReadCC reads mutated cc profiles: nothing may panic, and a profile
// read writes back to one that reads the same.
func FuzzReadCC(f *testing.F) {
	for _, s := range []string{
		"v1\nf main alias\nc 0 2 1\nc 3\ng 0:1,2:1\n",
		"!main/alias M=a.c\n!!0 1\n!!2\n",
		"v2\n", "v1\nc 0\n", "v1\nf a\nc 0 0\n", "v1\nf a\nf a\n", "v1\nz\n", "!\n", "v1\nf a\nc 6.1\n",
		"v1\nf a\nc 99999999999\n", "v1\n\n",
		"v1\nm a.c\nf s\nc 0\nm b.c\nf s\nc 0 1\n", "v1\nm a.c\nf s\nm a.c\nf s\n", "v1\nm\n", "v1\nm a b\n",
		"!s M=a.c\n!!0\n!s M=b.c\n!!0\n", "!s M=\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadCC(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		for _, fn := range p.Funcs {
			if len(fn.Names) == 0 || fn.Names[0] == "" {
				t.Fatalf("a function without a name: %+v", fn)
			}
		}
	})
}
