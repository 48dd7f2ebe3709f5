package pprofread

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// pb builds protobuf messages for the tests: varint fields and
// length-delimited ones.
type pb []byte

func (b pb) v(num, val uint64) pb {
	b = binary.AppendUvarint(b, num<<3)
	return binary.AppendUvarint(b, val)
}

func (b pb) m(num uint64, msg pb) pb {
	b = binary.AppendUvarint(b, num<<3|2)
	b = binary.AppendUvarint(b, uint64(len(msg)))
	return append(b, msg...)
}

// pprofParts are the messages of a small valid profile; a test replaces
// one to damage it.
type pprofParts struct{ sampleType, sample, mapping, location, function pb }

func goodParts() pprofParts {
	return pprofParts{
		sampleType: pb{}.v(1, 1).v(2, 2),                    // type "samples", unit "count"
		sample:     pb{}.v(1, 1).v(2, 7),                    // location 1, value 7
		mapping:    pb{}.v(1, 1).v(5, 3),                    // id 1, file "a.out"
		location:   pb{}.v(1, 1).v(2, 1).m(4, pb{}.v(1, 1)), // id 1, mapping 1, line of function 1
		function:   pb{}.v(1, 1).v(2, 4),                    // id 1, name "main"
	}
}

func (p pprofParts) bytes() []byte {
	b := pb{}.m(1, p.sampleType).m(2, p.sample).m(3, p.mapping).m(4, p.location).m(5, p.function)
	for _, s := range []string{"", "samples", "count", "a.out", "main"} {
		b = b.m(6, pb(s))
	}
	return b
}

// TestPprofRefsNamed: a profile pprof refuses after decoding is refused
// with the offset of the message at fault; pprof refuses each as well.
func TestPprofRefsNamed(t *testing.T) {
	tests := []struct {
		name   string
		damage func(*pprofParts)
		want   string
	}{
		{"missing location", func(p *pprofParts) { p.sample = pb{}.v(1, 9).v(2, 7) }, "sample refers to location 9"},
		{"value count", func(p *pprofParts) { p.sample = pb{}.v(1, 1).v(2, 7).v(2, 8) }, "sample has 2 values for 1 sample types"},
		{"function id 0", func(p *pprofParts) { p.function = pb{}.v(2, 4) }, "function with the reserved id 0"},
		{"string index", func(p *pprofParts) { p.function = pb{}.v(1, 1).v(2, 40) }, "string index 40 outside the string table of 5 strings"},
		{"line without function", func(p *pprofParts) { p.location = pb{}.v(1, 1).m(4, pb{}.v(2, 3)) }, "location line refers to function 0"},
		{"label key", func(p *pprofParts) { p.sample = pb{}.v(1, 1).v(2, 7).m(3, pb{}.v(1, 77)) }, "label string index 77"},
	}
	good := goodParts().bytes()
	if err := checkPprofRefs(good); err != nil {
		t.Fatalf("valid profile refused: %v", err)
	}
	if _, err := profile.ParseData(good); err != nil {
		t.Fatalf("pprof refuses the valid profile: %v", err)
	}
	for _, tt := range tests {
		p := goodParts()
		tt.damage(&p)
		data := p.bytes()
		_, err := Decode(data)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "offset ") {
			t.Errorf("%s: %v, want an offset and %q", tt.name, err, tt.want)
		}
		if _, perr := profile.ParseData(data); perr == nil {
			t.Errorf("%s: pprof accepts it", tt.name)
		}
	}
}
