package symbolize

import (
	"debug/elf"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"
)

// splitBuild is a program built twice by clang-19 from the same objects'
// sources, once with -gsplit-dwarf (.dwo files beside the objects, and a
// .dwp package made by llvm-dwp-19) and once without; the code is the same.
type splitBuild struct {
	dir          string // the build directory: DW_AT_comp_dir is "." (-fdebug-compilation-dir)
	plain, split string // the two binaries
}

// buildSplit compiles src (C files: name -> text) at DWARF version.
func buildSplit(t *testing.T, version int, src map[string]string) splitBuild {
	t.Helper()
	clang := testutil.Tool(t, "clang-19")
	dwp := testutil.Tool(t, "llvm-dwp-19")
	dir := t.TempDir()
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	var plainObjs, splitObjs []string
	for _, name := range slices.Sorted(maps.Keys(src)) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(name, ".c")
		flags := []string{"-O2", "-g", fmt.Sprintf("-gdwarf-%d", version), "-fdebug-compilation-dir=.", "-c", name}
		run(clang, append(flags, "-o", "p-"+base+".o")...)
		run(clang, append(flags, "-gsplit-dwarf", "-o", base+".o")...)
		plainObjs = append(plainObjs, "p-"+base+".o")
		splitObjs = append(splitObjs, base+".o")
	}
	run(clang, append(plainObjs, "-o", "plain")...)
	run(clang, append(splitObjs, "-o", "split")...)
	run(dwp, "-e", "split", "-o", "split.dwp")
	return splitBuild{dir: dir, plain: filepath.Join(dir, "plain"), split: filepath.Join(dir, "split")}
}

// splitSrc has inlining across static functions, inlined subroutines of
// several ranges (their cold paths moved to the end of main by
// __builtin_expect) and calls between units.
var splitSrc = map[string]string{
	"a.c": `int work(int);
void report(int);
volatile int sink;
static inline int check(int x) {
	if (__builtin_expect(x % 1000 == 777, 0)) {
		report(x);
		sink = x * 3;
	}
	return x + 1;
}
static inline int sq(int x) { return check(x) * x; }
static inline int add(int a, int b) { return sq(a) + check(b); }
int main(int argc, char **argv) {
	int s = 0;
	for (int i = 0; i < 1000; i++) {
		s = add(s & 7, i) + work(i + argc);
		if (__builtin_expect(s == 12345, 0)) sink = s;
	}
	return s & 1;
}
`,
	"b.c": `void report(int x) { (void)x; }
static inline int twice(int x) { return 2 * x; }
__attribute__((noinline)) int helper(int x) { return twice(x) ^ 5; }
int work(int x) {
	int t = 0;
	for (int i = 0; i < (x & 15); i++) t += helper(i + x);
	return t;
}
`,
}

// openTable builds the table of the binary at path, lazily or not, with
// its split units read from where split says.
func openTable(t *testing.T, path string, lazy bool, split *Split) *Table {
	return openTableWith(t, path, lazy, Options{Split: split})
}

// openTableWith builds the table of the binary at path, lazily or not,
// with opts (its split units read from the binary's sections), and marks
// the entries of its function symbols.
func openTableWith(t *testing.T, path string, lazy bool, opts Options) *Table {
	t.Helper()
	f, err := binary.Open(path, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	opts.PreferredBase = f.PreferredBase()
	if lazy {
		opts.Info = f.ELF().Section(".debug_info")
	}
	if opts.Split != nil {
		opts.Split.Section = f.DWARFSection
	}
	tab, err := New(d, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Close)
	if lazy != (tab.lazy != nil) {
		t.Fatalf("%s: lazy %v, want %v", path, tab.lazy != nil, lazy)
	}
	tab.MarkEntries(elfSymbols(f.ELF()))
	return tab
}

// textAddrs are the addresses of the binary's .text section.
func textAddrs(t *testing.T, path string) (lo, hi uint64) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".text")
	return s.Addr, s.Addr + s.Size
}

// describeFull is describe with each frame's file.
func describeFull(tab *Table, addr uint64) string {
	s := describe(tab, addr)
	for _, f := range tab.Frames(addr, nil) {
		s += " " + f.File
	}
	return s
}

// TestSplitDWARFMatchesPlain: the table of a -gsplit-dwarf build, its
// split units read from the .dwo files or from the package, eagerly,
// unit by unit or all prefetched, answers every address of the code as
// the table of the same program built without it; and it has the same
// functions.
func TestSplitDWARFMatchesPlain(t *testing.T) {
	for _, version := range []int{5, 4} {
		b := buildSplit(t, version, splitSrc)
		t.Chdir(b.dir) // the .dwo files are at DW_AT_comp_dir ".", the working directory
		lo, hi := textAddrs(t, b.plain)
		for _, mode := range []string{"eager", "lazy", "prefetched"} {
			lazy := mode != "eager"
			want := openTable(t, b.plain, lazy, nil)
			for _, from := range []string{"dwo", "dwp"} {
				t.Run(fmt.Sprintf("DWARF%d/%s/%s", version, from, mode), func(t *testing.T) {
					split := &Split{DWP: "nosuch.dwp"}
					if from == "dwp" {
						split.DWP = "split.dwp"
						hideDWOs(t, b.dir)
					}
					got := openTable(t, b.split, lazy, split)
					if mode == "prefetched" {
						got.Prefetch([]uint64{lo, (lo + hi) / 2, hi - 1})
					}
					if r := got.Split(); r.Units != 2 || len(r.Missing) != 0 || (r.DWP != "") != (from == "dwp") {
						t.Errorf("split report %+v", r)
					}
					for addr := lo; addr < hi; addr++ {
						if g, w := describeFull(got, addr), describeFull(want, addr); g != w {
							t.Fatalf("%#x: split %s\nplain %s", addr, g, w)
						}
					}
					if g, w := fmt.Sprint(names(got.Functions())), fmt.Sprint(names(want.Functions())); g != w {
						t.Errorf("functions: split %s\nplain %s", g, w)
					}
				})
			}
		}
	}
}

func names(fs []*Function) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprint(f.Name, f.Ranges))
	}
	return out
}

// hideDWOs renames the .dwo files in dir for the rest of the test.
func hideDWOs(t *testing.T, dir string) {
	dwos, _ := filepath.Glob(filepath.Join(dir, "*.dwo"))
	for _, p := range dwos {
		if err := os.Rename(p, p+".hidden"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Rename(p+".hidden", p) })
	}
}

// TestSplitDWARFMissing: a split unit that is nowhere to be found leaves
// its code without functions and is reported, as LLVM does; the other
// units are read.
func TestSplitDWARFMissing(t *testing.T) {
	b := buildSplit(t, 5, splitSrc)
	t.Chdir(b.dir)
	hidden := filepath.Join(b.dir, "b.dwo")
	if err := os.Rename(hidden, hidden+".hidden"); err != nil {
		t.Fatal(err)
	}
	for _, lazy := range []bool{false, true} {
		tab := openTable(t, b.split, lazy, &Split{DWP: "nosuch.dwp"})
		r := tab.Split()
		if r.Units != 2 || fmt.Sprint(r.Missing) != "[b.dwo]" || r.DWP != "" || r.DWPErr == nil {
			t.Errorf("lazy=%v: split report %+v", lazy, r)
		}
		if g := fmt.Sprint(names(tab.Functions())); !strings.Contains(g, "main") || strings.Contains(g, "work") {
			t.Errorf("lazy=%v: functions %s, want main's unit only", lazy, g)
		}
	}
}

// TestSplitDWARFRefused: without Options.Split, New refuses a binary with
// split units instead of returning a table without their functions.
func TestSplitDWARFRefused(t *testing.T) {
	b := buildSplit(t, 5, splitSrc)
	f, err := elf.Open(b.split)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(d, Options{}); err == nil || !strings.Contains(err.Error(), "split DWARF") {
		t.Errorf("New: %v, want a split DWARF error", err)
	}
}
