package sampleprof

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// manyTargets is a text profile of one body line with n call targets,
// every name given twice (the later count replaces the earlier, as in LLVM).
func manyTargets(n int) string {
	var b strings.Builder
	b.WriteString("main:100:1\n 1: 100")
	for round := range 2 {
		for i := range n {
			fmt.Fprintf(&b, " f%d:%d", i, i+round)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// TestManyCallTargets: 1M call targets on one line parse in linear time
// (llvm-profdata-19 takes 2.8 s; the old linear search took minutes).
func TestManyCallTargets(t *testing.T) {
	const n = 1 << 20
	text := manyTargets(n)
	start := time.Now()
	p, err := ReadText(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("parsing %d call targets took %v, want < 5s", n, d)
	}
	ts := p.Functions["main"].Body[LineLocation{1, 0}].CallTargets
	if len(ts) != n || ts["f0"] != 1 || ts[fmt.Sprintf("f%d", n-1)] != uint64(n) {
		t.Errorf("%d targets, f0=%d; want %d, the later count of each", len(ts), ts["f0"], n)
	}
}
