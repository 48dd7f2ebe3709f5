package perfsyms

import (
	"debug/elf"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type testSym struct {
	start, end uint64
	name       string
	bind       elf.SymBind
}

func tableOf(syms []testSym) *table {
	t := &table{}
	for _, s := range syms {
		add(t, s.start, s.end, s.name, s.bind)
	}
	return t
}

// TestTable: aliases of an ELF symbol table resolve as perf's
// choose_best_symbol does; kallsyms keeps the last alias; symbols of no
// size reach the next one.
func TestTable(t *testing.T) {
	elfSyms := tableOf([]testSym{
		{0x100, 0x120, "__GI___execve", elf.STB_LOCAL},
		{0x100, 0x120, "__execve", elf.STB_LOCAL},
		{0x100, 0x120, "execve", elf.STB_WEAK},
		{0x200, 0x200, "label", elf.STB_GLOBAL},
		{0x300, 0x340, "last", elf.STB_GLOBAL},
	}).finish(true)
	kernel := tableOf([]testSym{
		{0x1000, 0x1000, "memset", elf.STB_GLOBAL},
		{0x1000, 0x1000, "__pi_memset", elf.STB_GLOBAL},
		{0x1100, 0x1100, "next", elf.STB_LOCAL},
	}).finish(false)
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
		addr, name, _, ok := parseKallsym([]byte(line))
		if !ok {
			return
		}
		addrText, _, _ := strings.Cut(line, " ")
		if want, err := strconv.ParseUint(addrText, 16, 64); err != nil || addr != want || len(name) == 0 {
			t.Fatalf("%q: address %#x (ParseUint: %#x, %v), name %q", line, addr, want, err, name)
		}
	})
}

// BenchmarkLoadKernel reads and parses the running kernel's kallsyms
// (/proc/kallsyms, and a copy of it in a file, without the kernel's cost
// of making the text).
func BenchmarkLoadKernel(b *testing.B) {
	text, err := os.ReadFile("/proc/kallsyms")
	if err != nil || len(text) == 0 {
		b.Skip("no /proc/kallsyms")
	}
	copyPath := filepath.Join(b.TempDir(), "kallsyms")
	if err := os.WriteFile(copyPath, text, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{"/proc/kallsyms", copyPath} {
		b.Run(filepath.Base(filepath.Dir(path)), func(b *testing.B) {
			n := New(nil)
			n.KallsymsPath = path
			b.ReportAllocs()
			for b.Loop() {
				if t := n.loadKernel(""); len(t.syms) == 0 {
					b.Fatal("no symbols")
				}
			}
		})
	}
}

// TestKernelSource checks which kallsyms loadKernel reads: perf's cached
// copy of the recorded kernel's when there is one, else the running
// kernel's when it was the one recorded.
func TestKernelSource(t *testing.T) {
	dir := t.TempDir()
	note := []byte{4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xab, 0xcd, 0xef, 0}
	notes := filepath.Join(dir, "notes")
	running := filepath.Join(dir, "kallsyms")
	os.WriteFile(notes, note, 0o644)
	os.WriteFile(running, []byte("ffffffff81000000 T running_fn\n"), 0o644)
	cached := func(id string) {
		p := filepath.Join(dir, "cache", "[kernel.kallsyms]", id, "kallsyms")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("ffffffff81000000 T cached_fn_"+id+"\n"), 0o644)
	}
	cached("abcdef")
	cached("012345")
	tests := []struct {
		id      string
		noCache bool
		want    string
	}{
		{"abcdef", false, "cached_fn_abcdef"}, // the running kernel, also cached: the file
		{"abcdef", true, "running_fn"},        // the running kernel, not cached
		{"012345", false, "cached_fn_012345"}, // another kernel, cached
		{"", false, "running_fn"},             // no build id recorded
		{"999999", false, ""},                 // another kernel, not cached
	}
	for _, tt := range tests {
		n := New(nil)
		n.KallsymsPath, n.NotesPath, n.CacheDir = running, notes, filepath.Join(dir, "cache")
		if tt.noCache {
			n.CacheDir = filepath.Join(dir, "none")
		}
		got := ""
		if tb := n.loadKernel(tt.id); len(tb.syms) > 0 {
			got = tb.find(0xffffffff81000010)
		}
		if got != tt.want {
			t.Errorf("kernel %q: %q, want %q", tt.id, got, tt.want)
		}
	}
}
