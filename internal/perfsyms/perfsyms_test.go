package perfsyms

import (
	"debug/elf"
	"os"
	"path/filepath"
	"testing"
)

// TestTable: aliases of an ELF symbol table resolve as perf's
// choose_best_symbol does; kallsyms keeps the last alias; symbols of no
// size reach the next one.
func TestTable(t *testing.T) {
	elfSyms := (&table{syms: []sym{
		{0x100, 0x120, "__GI___execve", elf.STB_LOCAL},
		{0x100, 0x120, "__execve", elf.STB_LOCAL},
		{0x100, 0x120, "execve", elf.STB_WEAK},
		{0x200, 0x200, "label", elf.STB_GLOBAL},
		{0x300, 0x340, "last", elf.STB_GLOBAL},
	}}).finish(true)
	kernel := (&table{syms: []sym{
		{0x1000, 0x1000, "memset", elf.STB_GLOBAL},
		{0x1000, 0x1000, "__pi_memset", elf.STB_GLOBAL},
		{0x1100, 0x1100, "next", elf.STB_LOCAL},
	}}).finish(false)
	tests := []struct {
		t    *table
		addr uint64
		want string
	}{
		{elfSyms, 0x110, "__GI___execve"},
		{elfSyms, 0x120, ""}, // past its size
		{elfSyms, 0x2ff, "label"},
		{elfSyms, 0x33f, "last"},
		{elfSyms, 0x340, ""},
		{elfSyms, 0xff, ""},
		{kernel, 0x1004, "__pi_memset"},
		{kernel, 0x1100, "next"},
		{kernel, 0x1fff, "next"}, // the last kallsyms symbol reaches the next page
	}
	for _, tt := range tests {
		if got := tt.t.find(tt.addr); got != tt.want {
			t.Errorf("find(%#x) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestKallsyms(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "kallsyms")
	os.WriteFile(p, []byte("ffffffff81000000 T _text\nffffffff81000100 t local_fn\nffffffff81000200 D data\nffffffff81000300 W weak_fn\nffffffffc0000000 t mod_fn\t[mod]\nzzz T bad\n"), 0o644)
	n := New(nil)
	n.KallsymsPath = p
	for addr, want := range map[uint64]string{0xffffffff81000010: "_text", 0xffffffff81000210: "local_fn", 0xffffffff81000300: "weak_fn"} {
		if got := n.Name("", true, addr); got != want {
			t.Errorf("%#x: %q, want %q", addr, got, want)
		}
	}
}

func TestRunningKernelID(t *testing.T) {
	note := []byte{4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xab, 0xcd, 0xef}
	p := filepath.Join(t.TempDir(), "notes")
	os.WriteFile(p, append([]byte{4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 'X', 'e', 'n', 0}, append(note, 0)...), 0o644)
	if got := runningKernelID(p); got != "abcdef" {
		t.Errorf("got %q", got)
	}
}

func FuzzParseKallsym(f *testing.F) {
	f.Add("ffffffff81000000 T _text")
	f.Add("ffffffffc0000000 t mod_fn\t[mod]")
	f.Fuzz(func(t *testing.T, line string) {
		if s, ok := parseKallsym(line); ok && (s.name == "" || s.end != s.start) {
			t.Fatalf("%q: %+v", line, s)
		}
	})
}
