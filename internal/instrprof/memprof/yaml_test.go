package memprof

import (
	"strings"
	"testing"
)

const yamlProfile = `---
# a comment-only document first, as show --memory prints
---
HeapProfileRecords:
  - GUID: 0x1
    AllocSites:
      - Callstack:
          - { Function: 0x2, LineOffset: 1, Column: 3, IsInlineFrame: true }
          - { Function: main, LineOffset: 2, Column: 4, IsInlineFrame: false }
        MemInfoBlock:
          AllocCount: 2
          TotalSize: 30
    CallSites:
      - Frames:
          - { Function: 0x2, LineOffset: 1, Column: 3, IsInlineFrame: false }
        CalleeGuids: [ 0x3, main ]
  - GUID: 0x1
    CallSites: []
...
`

func TestReadYAML(t *testing.T) {
	d, err := ReadYAML([]byte(yamlProfile))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Records) != 1 {
		t.Fatalf("%d records, want 1 (a repeated GUID keeps its first)", len(d.Records))
	}
	r := d.Records[0]
	frames := d.StackFrames(r.AllocSites[0].Stack)
	if len(frames) != 2 || frames[1].Function != GUIDOf("main") || !frames[0].Inline || frames[1].Column != 4 {
		t.Errorf("call stack %+v", frames)
	}
	if m := r.AllocSites[0].Info; m.Get(TagTotalSize) != 30 || !m.Has(TagAllocCount) || m.Has(TagMinSize) {
		t.Errorf("MIB %v present %b", m.Values, m.Present)
	}
	if cs := r.CallSites[0]; len(cs.Callees) != 2 || cs.Callees[1] != GUIDOf("main") {
		t.Errorf("call site %+v", cs)
	}
}

func TestReadYAMLErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"decimal GUID", "HeapProfileRecords:\n  - GUID: 12\n", "line 2: use a hexadecimal GUID"},
		{"bad hex", "HeapProfileRecords:\n  - GUID: 0xZZ\n", "line 2: invalid hex64 number"},
		{"no GUID", "HeapProfileRecords:\n  - AllocSites: []\n", "missing required key 'GUID'"},
		{"unknown MIB field", "HeapProfileRecords:\n  - GUID: f\n    AllocSites:\n      - Callstack: []\n        MemInfoBlock: { Bogus: 1 }\n", "line 5: Key is not a valid"},
		{"short frame", "HeapProfileRecords:\n  - GUID: f\n    CallSites:\n      - Frames:\n          - { Function: f }\n", "line 5: a frame needs"},
		{"data access", "DataAccessProfiles: {}\n", "not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadYAML([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func FuzzReadYAML(f *testing.F) {
	f.Add([]byte(yamlProfile))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ReadYAML(b)
		if err == nil && d == nil {
			t.Fatal("no data and no error")
		}
	})
}
