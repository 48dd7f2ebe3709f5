package perfdata

import (
	"fmt"
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
