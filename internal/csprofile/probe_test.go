package csprofile

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/sampleprof"
)

// descSection encodes .pseudo_probe_desc records: GUID, hash, name.
func descSection(names map[uint64]string) []byte {
	var b []byte
	for guid, name := range names {
		b = binary.LittleEndian.AppendUint64(b, guid)
		b = binary.LittleEndian.AppendUint64(b, guid*10)
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
	}
	return b
}

// TestAppendInlineContext: a probe's frames are its inlining callers at
// their call-site indexes, then its own function at its index; a call
// site of unknown index (0) drops every frame before it, those of the
// context being built included (llvm-profgen's getInlineContextForProbe).
func TestAppendInlineContext(t *testing.T) {
	descs, err := pseudoprobe.DecodeDescs(descSection(map[uint64]string{1: "main", 2: "foo", 3: "bar", 4: "caller"}))
	if err != nil {
		t.Fatal(err)
	}
	main := &pseudoprobe.Node{GUID: 1}
	foo := &pseudoprobe.Node{GUID: 2, Site: 3, Parent: main}
	bar := &pseudoprobe.Node{GUID: 3, Site: 0, Parent: foo}
	prefix := []sampleprof.ContextFrame{{Func: "caller", Loc: sampleprof.LineLocation{LineOffset: 2}}}
	for _, tt := range []struct {
		name   string
		prefix []sampleprof.ContextFrame
		probe  pseudoprobe.Probe
		want   string
	}{
		{"top level", nil, pseudoprobe.Probe{Index: 4, Node: main}, "main:4"},
		{"inlined", prefix, pseudoprobe.Probe{Index: 6, Node: foo}, "caller:2 @ main:3 @ foo:6"},
		{"unknown call site", prefix, pseudoprobe.Probe{Index: 5, Node: bar}, "bar:5"},
	} {
		pg := &probeGenerator{descs: descs}
		frames, ok := pg.appendInlineContext(append([]sampleprof.ContextFrame(nil), tt.prefix...), &tt.probe)
		if !ok {
			t.Fatalf("%s: %v", tt.name, pg.err)
		}
		if got := framesString(frames); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	pg := &probeGenerator{descs: descs}
	if _, ok := pg.appendInlineContext(nil, &pseudoprobe.Probe{Index: 1, Node: &pseudoprobe.Node{GUID: 9}}); ok || pg.err == nil {
		t.Error("a probe of a function without descriptor gave a context")
	}
}

// framesString writes frames as func:index, the leaf's index too.
func framesString(frames []sampleprof.ContextFrame) string {
	parts := make([]string, len(frames))
	for i, f := range frames {
		parts[i] = fmt.Sprintf("%s:%d", f.Func, f.Loc.LineOffset)
	}
	return strings.Join(parts, " @ ")
}
