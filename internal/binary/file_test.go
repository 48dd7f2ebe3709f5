package binary

import (
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

func openTestdata(t testing.TB, name string, opts Options) *File {
	t.Helper()
	f, err := Open(filepath.Join("testdata", name), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestOpenTestdata(t *testing.T) {
	tests := []struct {
		file      string
		pie       bool
		base      uint64
		buildID   string
		firstFunc string
	}{
		{"clang-pie.elf", true, 0, "a5a7aca534e387e179c8ccda6a93d6f8451fe9a2", "_init"},
		{"clang-nopie.elf", false, 0x400000, "7cbad5ed48d4e5d97573cb9585c12afa47ecd49e", "_init"},
		{"clang-cet.elf", true, 0, "a0f44d9aa19fa3759b52e31510c922ab4ecfe92c", "_init"},
		{"gcc-cet.elf", true, 0, "49f719295315f96239e4b0401146370a7196ff2a", "_init"},
		{"tricky.elf", false, 0x400000, "cff90661e3dc897f235009c867746d2d1f36fcae", "_start"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := openTestdata(t, tt.file, Options{})
			if f.IsPIE() != tt.pie {
				t.Errorf("IsPIE = %v, want %v", f.IsPIE(), tt.pie)
			}
			if f.PreferredBase() != tt.base {
				t.Errorf("PreferredBase = %#x, want %#x", f.PreferredBase(), tt.base)
			}
			if got := hex.EncodeToString(f.BuildID()); got != tt.buildID {
				t.Errorf("BuildID = %s, want %s", got, tt.buildID)
			}
			if fs := f.FuncSymbols(); len(fs) == 0 || fs[0].Name != tt.firstFunc {
				t.Errorf("first function symbol = %v, want %s", fs, tt.firstFunc)
			}
		})
	}
}

func TestDebugPath(t *testing.T) {
	stripped := openTestdata(t, "clang-pie-stripped.elf", Options{})
	if d, err := stripped.DWARF(); err == nil && d != nil {
		r := d.Reader()
		if e, _ := r.Next(); e != nil {
			t.Errorf("stripped binary has DWARF entries")
		}
	}
	f := openTestdata(t, "clang-pie-stripped.elf", Options{DebugPath: filepath.Join("testdata", "clang-pie.debug")})
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.Reader().Next()
	if err != nil || e == nil {
		t.Fatalf("no compile unit in the debug file: %v", err)
	}
}

// TestStrippedHasNoCode: without .symtab llvm-profgen disassembles nothing,
// so no address is code.
func TestStrippedHasNoCode(t *testing.T) {
	objcopy := testutil.Tool(t, "objcopy")
	stripped := filepath.Join(t.TempDir(), "stripped.elf")
	if out, err := exec.Command(objcopy, "--strip-all", filepath.Join("testdata", "clang-pie.elf"), stripped).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	f, err := Open(stripped, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	main := symbolNamed(t, openTestdata(t, "clang-pie.elf", Options{}), "main")
	if f.IsCode(main.Addr) {
		t.Errorf("IsCode(main) in a stripped binary")
	}
	if _, ok := f.NextInst(0); ok {
		t.Errorf("NextInst finds code in a stripped binary")
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name string
		path string
		opts Options
	}{
		{"missing binary", "testdata/nope.elf", Options{}},
		{"missing debug file", "testdata/clang-pie.elf", Options{DebugPath: "testdata/nope.debug"}},
		{"not ELF", "testdata/prog.c", Options{}},
	}
	for _, tt := range tests {
		if f, err := Open(tt.path, tt.opts); err == nil {
			f.Close()
			t.Errorf("%s: Open succeeded", tt.name)
		}
	}
}
