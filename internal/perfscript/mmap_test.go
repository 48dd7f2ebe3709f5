package perfscript

import (
	"strings"
	"testing"
)

// TestMmapBuildID: perf script prints an MMAP2 that carries a build id
// (perf record --buildid-mmap) with <id> in place of maj:min inode gen.
func TestMmapBuildID(t *testing.T) {
	for _, tt := range []struct {
		name, line string
		path, id   string
	}{
		{"build id", " 9784 PERF_RECORD_MMAP2 9784/9784: [0x5561958b0000(0x1000) @ 0x1000 <9b1ece2905cb175976c3910115539901483c9bfb>]: r-xp /tmp/pt",
			"/tmp/pt", "9b1ece2905cb175976c3910115539901483c9bfb"},
		{"kernel", "0 PERF_RECORD_MMAP2 -1/0: [0xffffffff81000000(0x1276f48) @ 0xffffffff81000000 <85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26>]: ---p [kernel.kallsyms]_text",
			"[kernel.kallsyms]_text", "85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26"},
		{"device and inode", "PERF_RECORD_MMAP2 7/7: [0x401000(0x1000) @ 0x1000 fe:01 123 0]: r-xp /bin/t", "/bin/t", ""},
		{"vdso", "PERF_RECORD_MMAP2 7/7: [0x7f4690355000(0x2000) @ 0 00:00 0 0]: r-xp [vdso]", "[vdso]", ""},
		{"not hex", "PERF_RECORD_MMAP2 7/7: [0x401000(0x1000) @ 0x1000 <xyz>]: r-xp /bin/t", "/bin/t", ""},
		{"empty", "PERF_RECORD_MMAP2 7/7: [0x401000(0x1000) @ 0x1000 <>]: r-xp /bin/t", "/bin/t", ""},
	} {
		s := NewScanner(strings.NewReader(tt.line+"\n"), "in.script")
		if !s.Next() {
			t.Fatalf("%s: %v", tt.name, s.Err())
		}
		m := s.Record().Mmap
		if m.Path != tt.path || m.BuildID != tt.id {
			t.Errorf("%s: path %q build id %q, want %q %q", tt.name, m.Path, m.BuildID, tt.path, tt.id)
		}
	}
}
