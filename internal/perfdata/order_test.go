package perfdata

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderQueue: records come out as perf's ordered-events queue lets
// them: a round delivers up to the newest time of the round before, in
// time order, ties in queueing order; the end delivers the rest.
func TestOrderQueue(t *testing.T) {
	q := newOrderQueue()
	var got []string
	drain := func() {
		for e, ok := q.pop(); ok; e, ok = q.pop() {
			got = append(got, fmt.Sprintf("%d%s", e.time, e.data))
		}
		got = append(got, "|")
	}
	push := func(tm uint64, tag string) { q.push(queued{time: tm, data: []byte(tag)}, true) }
	push(5, "a")
	push(3, "b")
	push(4, "c")
	q.round() // limit 0: nothing; next limit 5
	drain()
	push(2, "d")
	push(5, "e")
	push(9, "f")
	q.round() // up to 5; next limit 9
	drain()
	push(7, "g")
	q.final()
	drain()
	want := "[| 2d 3b 4c 5a 5e | 7g 9f |]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestOrderQueueBounded: a stream without rounds is delivered by halves
// once the queue holds maxCopied bytes.
func TestOrderQueueBounded(t *testing.T) {
	defer func(n int) { maxCopied = n }(maxCopied)
	maxCopied = 100
	q := newOrderQueue()
	n := 0
	for i := range 50 {
		q.push(queued{time: uint64(i + 1), data: make([]byte, 10)}, true)
		for _, ok := q.pop(); ok; _, ok = q.pop() {
			n++
		}
	}
	if n == 0 || len(q.q)-q.head > 20 {
		t.Errorf("%d delivered, %d queued", n, len(q.q)-q.head)
	}
}

// TestSortWaiting: the records not yet delivered come out in time order,
// ties in queueing order, whatever the order they were queued in.
func TestSortWaiting(t *testing.T) {
	tests := []struct {
		name  string
		times []uint64
		want  string // time and queueing position of each record, in order
	}{
		{"sorted", []uint64{1, 2, 3}, "[1.0 2.1 3.2]"},
		{"reversed", []uint64{3, 2, 1}, "[1.2 2.1 3.0]"},
		{"ties keep their order", []uint64{2, 1, 2, 1, 2}, "[1.1 1.3 2.0 2.2 2.4]"},
		{"two runs", []uint64{1, 4, 7, 2, 5, 8}, "[1.0 2.3 4.1 5.4 7.2 8.5]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newOrderQueue()
			for i, tm := range tt.times {
				q.push(queued{time: tm, data: []byte{byte(i)}}, false)
			}
			q.final()
			var got []string
			for e, ok := q.pop(); ok; e, ok = q.pop() {
				got = append(got, fmt.Sprintf("%d.%d", e.time, e.data[0]))
			}
			if fmt.Sprint(got) != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSortKeys: merging runs in time order sorts as sorting does, for keys
// in a few runs, in many, and in none.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	runsOf := func(runs, n int) []orderKey {
		var keys []orderKey
		for range runs {
			tm := uint64(r.IntN(100))
			for range n {
				tm += uint64(r.IntN(3)) // ties within and across runs
				keys = append(keys, orderKey{time: tm, pos: len(keys)})
			}
		}
		return keys
	}
	tests := []struct {
		name string
		keys []orderKey
	}{
		{"empty", nil},
		{"one", runsOf(1, 1)},
		{"sorted", runsOf(1, 50)},
		{"two runs", runsOf(2, 50)},
		{"three runs", runsOf(3, 17)},
		{"many runs", runsOf(maxRuns, 5)},
		{"too many runs", runsOf(maxRuns+1, 5)},
		{"random", runsOf(500, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.keys)
			slices.SortFunc(want, compareKeys)
			got, _ := sortKeys(slices.Clone(tt.keys), nil)
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}
