package progress

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// clock is a fake time that tests move forward.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestShownAfterDelayThenErased(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	l := newLine(&out, 1000, "reading perf.data", c.now)
	l.Set(100)
	if out.Len() != 0 {
		t.Fatalf("shown before the delay: %q", out.String())
	}
	c.t = c.t.Add(3 * time.Second)
	time.Sleep(150 * time.Millisecond) // past the throttle
	l.Set(500)
	if !strings.Contains(out.String(), "reading perf.data") || !strings.Contains(out.String(), "50%") {
		t.Fatalf("line after the delay: %q", out.String())
	}
	l.Done()
	if s := out.String(); !strings.HasSuffix(s, "\r") {
		t.Errorf("not erased at the end: %q", s[max(0, len(s)-40):])
	}
	n := out.Len()
	l.Set(900)
	if out.Len() != n {
		t.Error("written after Done")
	}
}

func TestShortRunShowsNothing(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	l := newLine(&out, -1, "reading", c.now)
	io.Copy(io.Discard, l.Reader(strings.NewReader(strings.Repeat("x", 1<<20))))
	l.Stage("writing")
	l.Done()
	if out.Len() != 0 {
		t.Errorf("a run shorter than the delay wrote %q", out.String())
	}
}

func TestNotATerminal(t *testing.T) {
	var out bytes.Buffer
	if l := New(&out, 10, "x"); l != nil {
		t.Fatal("a progress line on a buffer")
	}
	var l *Line // nil: every method does nothing
	l.Set(1)
	l.Stage("y")
	l.Done()
	if r := l.Reader(strings.NewReader("a")); r == nil {
		t.Fatal("nil reader")
	}
}
