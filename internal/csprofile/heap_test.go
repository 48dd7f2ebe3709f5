package csprofile

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestCandidateQueueOrder: candidates that tie come out of the queue in
// the order of libstdc++'s std::priority_queue (testdata/heap_order.cpp,
// whose output is heap_order.golden): the same pseudo-random pushes and
// pops give the same sequence of ids.
func TestCandidateQueueOrder(t *testing.T) {
	want, err := os.ReadFile("testdata/heap_order.golden")
	if err != nil {
		t.Fatal(err)
	}
	x := uint64(88172645463325252)
	rnd := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	var got strings.Builder
	for round := 0; round < 200; round++ {
		var q candidateQueue
		n := 1 + int(rnd()%40)
		for id := 0; id < n; id++ {
			c := candidate{count: rnd() % 3}
			c.size = rnd() % 3
			c.guid = rnd() % 2
			c.prof = &profile{node: &node{fn: fmt.Sprint(id)}}
			q.push(c)
			if rnd()%4 == 0 {
				fmt.Fprintf(&got, "%s ", q.pop().prof.node.fn)
			}
		}
		for q.len() > 0 {
			fmt.Fprintf(&got, "%s ", q.pop().prof.node.fn)
		}
		got.WriteString("\n")
	}
	if got.String() != string(want) {
		t.Errorf("pop order differs from libstdc++'s:\n%s\nwant:\n%s", got.String()[:200], want[:200])
	}
}
