package binary

import (
	"bufio"
	"bytes"
	"debug/elf"
	stdbinary "encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestOpenPE: a PE image opens with llvm-profgen's COFF layout (the image
// base as the preferred base, the RVA of .text as the text offset), its
// COFF function symbols and its DWARF.
func TestOpenPE(t *testing.T) {
	tests := []struct {
		file    string
		machine elf.Machine
		funcs   string
	}{
		{"prog.exe", elf.EM_X86_64, "leaf pick tail main"},
		{"arm64-prog.exe", elf.EM_AARCH64, "leaf pick tail main"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := openTestdata(t, tt.file, Options{})
			if !f.IsCOFF() || f.ELF().Machine != tt.machine {
				t.Errorf("IsCOFF %v, machine %v; want true, %v", f.IsCOFF(), f.ELF().Machine, tt.machine)
			}
			if f.PreferredBase() != 0x140000000 || f.FirstLoadableAddress() != 0x140000000 || f.TextSegmentOffset() != 0x1000 {
				t.Errorf("preferred base %#x, first loadable %#x, text offset %#x; want the image base 0x140000000 twice and .text's RVA 0x1000",
					f.PreferredBase(), f.FirstLoadableAddress(), f.TextSegmentOffset())
			}
			if f.BuildID() != nil {
				t.Errorf("build id %x, want none", f.BuildID())
			}
			var names []string
			for _, s := range f.FuncSymbols() {
				names = append(names, s.Name)
			}
			if got := strings.Join(names, " "); got != tt.funcs {
				t.Errorf("functions %q, want %q", got, tt.funcs)
			}
			checkPEDWARF(t, f)
		})
	}
}

func checkPEDWARF(t *testing.T, f *File) {
	t.Helper()
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	cu, err := d.Reader().Next()
	if err != nil || cu == nil {
		t.Fatalf("no compile unit: %v", err)
	}
	if name, _ := cu.Val(0x03).(string); name != "prog.c" { // DW_AT_name
		t.Errorf("compile unit %q, want prog.c", name)
	}
	if info, err := f.DWARFSection(".debug_info"); err != nil || len(info) == 0 {
		t.Errorf(".debug_info: %d bytes, %v", len(info), err)
	}
}

// TestPERuntimeBase: the mmap of the image that llvm-profgen places is the
// one whose page offset is .text's RVA, and its address is the image's
// load address (coff-profile.test's trace).
func TestPERuntimeBase(t *testing.T) {
	f := openTestdata(t, "prog.exe", Options{})
	tests := []struct {
		addr, pgoff uint64
		ok          bool
	}{
		{0x7ff70a1b0000, 0x1000, true},
		{0x7ff70a1b0000, 0, false},
		{0x7ff70a1b1000, 0x2000, false},
	}
	for _, tt := range tests {
		base, ok := f.RuntimeBase(tt.addr, tt.pgoff)
		if ok != tt.ok || ok && base != tt.addr {
			t.Errorf("RuntimeBase(%#x, %#x) = %#x, %v; want %v", tt.addr, tt.pgoff, base, ok, tt.ok)
		}
	}
	if got := f.CanonicalAddr(0x7ff70a1b1010, 0x7ff70a1b0000); got != 0x140001010 {
		t.Errorf("CanonicalAddr = %#x, want 0x140001010 (pick)", got)
	}
}

// TestPESymbolsMatchNM: the function symbols are llvm-nm's text symbols.
func TestPESymbolsMatchNM(t *testing.T) {
	nm := testutil.Tool(t, "llvm-nm-22")
	for _, name := range []string{"prog.exe", "arm64-prog.exe"} {
		path := filepath.Join("testdata", name)
		out, err := exec.Command(nm, "--defined-only", path).Output()
		if err != nil {
			t.Fatalf("%s: %v", nm, err)
		}
		want := map[string]uint64{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) == 3 && strings.EqualFold(fields[1], "t") {
				want[fields[2]], _ = strconv.ParseUint(fields[0], 16, 64)
			}
		}
		f := openTestdata(t, name, Options{})
		got := map[string]uint64{}
		for _, s := range f.FuncSymbols() {
			got[s.Name] = s.Addr
		}
		if len(got) != len(want) || len(want) == 0 {
			t.Errorf("%s: functions %v, llvm-nm's %v", name, got, want)
		}
		for n, a := range want {
			if got[n] != a {
				t.Errorf("%s: %s at %#x, llvm-nm says %#x", name, n, got[n], a)
			}
		}
	}
}

// TestELFViewDisassembles: the ELF view of a PE image, written out, is an
// ELF file llvm-objdump disassembles as it does the PE image itself.
func TestELFViewDisassembles(t *testing.T) {
	objdump := testutil.Tool(t, "llvm-objdump-22")
	for _, name := range []string{"prog.exe", "arm64-prog.exe"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			view := writeELFView(t, path)
			want := objdumpInsts(t, objdump, path)
			got := objdumpInsts(t, objdump, view)
			if got != want || want == "" {
				t.Errorf("the ELF view disassembles as\n%s\nthe PE image as\n%s", got, want)
			}
		})
	}
}

// writeELFView writes the ELF view of the PE image at path to a file.
func writeELFView(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := readPE(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	view, err := img.elfView(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, view.Size())
	if _, err := view.ReadAt(out, 0); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "view.elf")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// objdumpInsts is llvm-objdump -d's listing from the first symbol on.
func objdumpInsts(t *testing.T, objdump, path string) string {
	t.Helper()
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", path).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", objdump, path, err)
	}
	s := string(out)
	if i := strings.Index(s, "\n\n0000"); i >= 0 {
		return s[i:]
	}
	return ""
}

// TestDamagedPE: a cut or inconsistent PE image is refused with one line
// naming the file.
func TestDamagedPE(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "prog.exe"))
	if err != nil {
		t.Fatal(err)
	}
	peOff := int(stdbinary.LittleEndian.Uint32(data[0x3c:]))
	zeroBase := bytes.Clone(data)
	clear(zeroBase[peOff+24+24 : peOff+24+32]) // OptionalHeader64.ImageBase
	headerText := bytes.Clone(data)
	sec := peOff + 24 + int(stdbinary.LittleEndian.Uint16(data[peOff+20:]))
	stdbinary.LittleEndian.PutUint32(headerText[sec+20:], 0x10) // .text's PointerToRawData
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"cut in the DOS header", data[:40], "p.exe: PE image:"},
		{"cut in the section table", data[:sec+20], "p.exe: PE image:"},
		{"image base 0", zeroBase, "without an image base"},
		{"text over the headers", headerText, "PE section 1 (.text): its data at offset 0x10 overlaps the headers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewFile(bytes.NewReader(tt.data), "p.exe", Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tt.want)
			}
		})
	}
}
