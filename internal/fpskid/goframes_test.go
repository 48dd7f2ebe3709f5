package fpskid

import (
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"
)

// TestGoFramesAgreeWithDecoding: in a Go binary, where the pclntab tells
// whether a frame is set up, decoding the function (frameStates) tells
// the same, but in the code only the fall-through of a call that does not
// return reaches in the decoder's eyes (Go's stack-growth trailer after a
// panic call), which it takes as set up and the pclntab, rightly, not.
// No function has its frame set up at its entry, though that trailer
// jumps back there.
func TestGoFramesAgreeWithDecoding(t *testing.T) {
	f, err := binary.Open(filepath.Join(testutil.DataDir(t, "nonpie"), "nonpiego"), binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newCode(f)
	if c.goFrames == nil {
		t.Fatal("no pclntab")
	}
	told, agree, trailer := 0, 0, 0
	for _, s := range f.FuncSymbols() {
		fn := c.funcAt(s.Addr)
		if fn == nil {
			continue
		}
		for _, in := range fn.insts {
			set, ok := c.goFrames.established(in.addr)
			if !ok {
				continue
			}
			told++
			switch decoded := c.established(fn, in.addr); {
			case set == decoded:
				agree++
			case in.addr == fn.entry:
				t.Errorf("%s: set up at its entry, decoding says", s.Name)
			case decoded && c.goFrames.funcs[mustIndex(t, c, in.addr)].sp.At(in.addr) == 0:
				trailer++
			default:
				t.Errorf("%s %#x: pclntab says set up %v, decoding %v", s.Name, in.addr, set, decoded)
			}
		}
	}
	t.Logf("%d instructions told by the pclntab: %d agree, %d in trailers", told, agree, trailer)
	if told < 100000 || agree < told*9/10 {
		t.Errorf("%d of %d agree", agree, told)
	}
}

func mustIndex(t *testing.T, c *code, addr uint64) int {
	i, ok := c.goFrames.lines.FuncIndex(addr)
	if !ok {
		t.Fatalf("%#x: no function", addr)
	}
	return i
}
