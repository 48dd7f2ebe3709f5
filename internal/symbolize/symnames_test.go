package symbolize

import (
	"debug/elf"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

const anonnsBinary = "../../testdata/programs/bin/anonns-gcc"

// anonnsTables opens anonns-gcc (testdata/programs/anonns.cc, g++-12 -O2
// -g: C++ in an anonymous namespace, no DW_AT_linkage_name) and builds
// its table, loading all units and loading them on demand, with opts and
// the entries its symbols mark.
func anonnsTables(t *testing.T, opts Options) map[string]*Table {
	return map[string]*Table{
		"eager": openTableWith(t, anonnsBinary, false, opts),
		"lazy":  openTableWith(t, anonnsBinary, true, opts),
	}
}

// anonnsSymbols are anonns-gcc's function symbols.
func anonnsSymbols(t *testing.T) []Symbol {
	f, err := elf.Open(anonnsBinary)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return elfSymbols(f)
}

// TestAnonymousNamespaceNames: with the ELF symbols, every function of
// the anonymous namespace has its own mangled name, out of line and
// inlined; without them, the DWARF names LLVM's symbolizer gives.
func TestAnonymousNamespaceNames(t *testing.T) {
	syms := anonnsSymbols(t)
	tests := []struct {
		name string
		opts Options
		// functions that must be there, entered at their first range;
		// names that must not be, of functions or of inlined frames.
		want, absent []string
		golden       string
	}{
		{
			name: "symbols",
			opts: Options{Symbols: syms},
			want: []string{
				"_ZNK12_GLOBAL__N_13Num4evalEl", "_ZNK12_GLOBAL__N_13Var4evalEl",
				"_ZNK12_GLOBAL__N_13BinINS_3AddEE4evalEl", "_ZNK12_GLOBAL__N_13BinINS_3MulEE4evalEl",
				"_ZN12_GLOBAL__N_13mixEl",
				"_ZN12_GLOBAL__N_13NumD2Ev", // of D1 and D2 at one address, D2: the one compiled
				"_ZN12_GLOBAL__N_13NumD0Ev",
				"_ZNSt10unique_ptrIN12_GLOBAL__N_14ExprESt14default_deleteIS1_EED2Ev",
				"_ZN4calc6squareEl", // a linkage name in the DWARF
				"main",
			},
			absent: []string{"eval", "mix", "~Num", "_ZN12_GLOBAL__N_13NumD1Ev", "~unique_ptr"},
			golden: "testdata/anonns-gcc.symbols.golden",
		},
		{
			name:   "dwarf",
			opts:   Options{},
			want:   []string{"_ZN4calc6squareEl", "main", "mix"},
			absent: []string{"_ZNK12_GLOBAL__N_13Num4evalEl", "_ZN12_GLOBAL__N_13mixEl"},
			golden: "testdata/anonns-gcc.dwarf.golden",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tables := anonnsTables(t, tt.opts)
			got := describeNames(t, tables["eager"])
			if lazy := describeNames(t, tables["lazy"]); lazy != got {
				t.Errorf("lazy table:\n%s\neager:\n%s", lazy, got)
			}
			testutil.Golden(t, tt.golden, []byte(got))
			fns := map[string]*Function{}
			for _, fn := range tables["eager"].Functions() {
				fns[fn.Name] = fn
			}
			for _, name := range tt.want {
				if fn := fns[name]; fn == nil || !tables["eager"].FuncRangeStartingAt(fn.Ranges[0][0]).IsEntry {
					t.Errorf("function %s: %+v, want it entered at its first range", name, fn)
				}
			}
			for _, name := range tt.absent {
				if strings.Contains(got, " "+name+"\n") || strings.Contains(got, " "+name+" ") {
					t.Errorf("%s named", name)
				}
			}
		})
	}
}

// TestAnonymousNamespaceInlined: mix, inlined into main, is named as its
// out-of-line copy is.
func TestAnonymousNamespaceInlined(t *testing.T) {
	syms := anonnsSymbols(t)
	for kind, tab := range anonnsTables(t, Options{Symbols: syms}) {
		found := false
		for _, fn := range tab.Functions() {
			if fn.Name != "main" {
				continue
			}
			for _, r := range fn.Ranges {
				for a := r[0]; a < r[1]; a++ {
					frames := tab.Frames(a, nil)
					if len(frames) > 1 && frames[len(frames)-1].Func == "_ZN12_GLOBAL__N_13mixEl" {
						found = true
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no inlined frame of main named _ZN12_GLOBAL__N_13mixEl", kind)
		}
	}
}

// describeNames lists the functions of tab (name, ranges, entries) and
// every inline stack of its code, by function names.
func describeNames(t *testing.T, tab *Table) string {
	t.Helper()
	var b strings.Builder
	var stacks []string
	for _, fn := range tab.Functions() {
		fmt.Fprintf(&b, "function %s\n", fn.Name)
		for _, r := range fn.Ranges {
			fmt.Fprintf(&b, "  %#x-%#x entry=%v\n", r[0], r[1], tab.FuncRangeStartingAt(r[0]).IsEntry)
			for a := r[0]; a < r[1]; a++ {
				var names []string
				for _, fr := range tab.Frames(a, nil) {
					names = append(names, fr.Func)
				}
				stacks = append(stacks, "stack "+strings.Join(names, " ")+"\n")
			}
		}
	}
	slices.Sort(stacks)
	for _, s := range slices.Compact(stacks) {
		b.WriteString(s)
	}
	return b.String()
}

func TestMangledNameAt(t *testing.T) {
	syms := []Symbol{
		{Addr: 0x10, Name: "_ZN12_GLOBAL__N_13NumC1Ev"},
		{Addr: 0x10, Name: "_ZN12_GLOBAL__N_13NumC2Ev"},
		{Addr: 0x20, Name: "_ZNK12_GLOBAL__N_13Num4evalEl.cold"},
		{Addr: 0x30, Name: "eval"},
		{Addr: 0x40, Name: "_ZNK12_GLOBAL__N_13Var4evalEl"},
		{Addr: 0x50, Name: "_Z4evalv"}, // eval(), no scope
	}
	tests := []struct {
		ranges [][2]uint64
		dwarf  string
		want   string
	}{
		{[][2]uint64{{0x10, 0x18}}, "Num", "_ZN12_GLOBAL__N_13NumC2Ev"}, // the name that sorts last
		{[][2]uint64{{0x20, 0x28}}, "eval", "_ZNK12_GLOBAL__N_13Num4evalEl"},
		{[][2]uint64{{0x30, 0x38}}, "eval", ""},                                            // not mangled
		{[][2]uint64{{0x40, 0x48}}, "exec", ""},                                            // another function's
		{[][2]uint64{{0x50, 0x58}}, "eval", ""},                                            // no namespace or class
		{[][2]uint64{{0x44, 0x48}}, "eval", ""},                                            // no symbol at the start
		{[][2]uint64{{0x38, 0x3c}, {0x40, 0x48}}, "eval", "_ZNK12_GLOBAL__N_13Var4evalEl"}, // the first range with one
	}
	for _, tt := range tests {
		if got := mangledNameAt(syms, tt.ranges, tt.dwarf); got != tt.want {
			t.Errorf("mangledNameAt(%#x, %q) = %q, want %q", tt.ranges, tt.dwarf, got, tt.want)
		}
	}
}
