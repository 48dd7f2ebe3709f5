package binary

import (
	"bytes"
	"compress/zlib"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/testutil"
)

// zlibSection appends to an ELF image a SHF_COMPRESSED section body of n
// zero bytes (made without holding them) and points the section named
// name at it.
func zlibSection(t *testing.T, img []byte, name string, n int) []byte {
	ef, err := elf.NewFile(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	body := slices.Clone(zlibZeros(n))
	le := binary.LittleEndian
	le.PutUint32(body, uint32(elf.COMPRESS_ZLIB))
	le.PutUint64(body[8:], uint64(n))
	le.PutUint64(body[16:], 1)
	off := uint64(len(img))
	img = append(img, body...)
	shoff := le.Uint64(img[0x28:])
	for i, s := range ef.Sections {
		if s.Name != name {
			continue
		}
		h := img[shoff+uint64(i)*64:]
		le.PutUint64(h[8:], le.Uint64(h[8:])|uint64(elf.SHF_COMPRESSED))
		le.PutUint64(h[24:], off)
		le.PutUint64(h[32:], uint64(len(body)))
		return img
	}
	t.Fatalf("no section %s", name)
	return nil
}

var zeroStreams = map[int][]byte{}

// zlibZeros is an Elf64_Chdr-sized gap and a zlib stream of n zero bytes,
// made once per n (BestSpeed: 4 s for 1 GiB where BestCompression takes
// 14 s, which the 20 s limit below cannot afford on a loaded machine).
func zlibZeros(n int) []byte {
	if z, ok := zeroStreams[n]; ok {
		return z
	}
	var z bytes.Buffer
	z.Write(make([]byte, 24)) // Elf64_Chdr
	w, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	zeros := make([]byte, 1<<20)
	for left := n; left > 0; left -= len(zeros) {
		w.Write(zeros[:min(left, len(zeros))])
	}
	w.Close()
	zeroStreams[n] = z.Bytes()
	return z.Bytes()
}

// TestCompressedDebugBombs: an ELF (-gz=zlib style) whose .debug_str or
// .debug_info inflates to 1 GiB of zeros from ~1 MB (4 GB of memory
// before) is refused with the file, section and offset, under a 2 GiB
// address-space limit within 20 s.
func TestCompressedDebugBombs(t *testing.T) {
	if !testutil.Limited(t, 2<<30, 20*time.Second) {
		return
	}
	img, err := os.ReadFile("testdata/clang-pie.elf")
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range []string{".debug_str", ".debug_info"} {
		bomb := zlibSection(t, append([]byte(nil), img...), sec, 1<<30)
		f, err := NewFile(bytes.NewReader(bomb), "bomb.elf", Options{})
		if err == nil {
			_, err = f.DWARF()
		}
		if err == nil || !strings.HasPrefix(err.Error(), "bomb.elf: section "+sec+" at offset 0x") || !strings.Contains(err.Error(), "compression bomb") {
			t.Errorf("%s: error %v, want the file, section and a compression bomb", sec, err)
		}
		t.Logf("%s: %v", sec, err)
	}
	// A compressed section within the limit is read.
	ok := zlibSection(t, append([]byte(nil), img...), ".debug_str", 4<<20)
	if _, err := NewFile(bytes.NewReader(ok), "ok.elf", Options{}); err != nil {
		t.Errorf("4 MiB section: %v", err)
	}
}

// TestCompressedDWARF checks that DWARF read from compressed sections
// (inflated in parallel by Sections.DWARF) is the DWARF of the same binary
// uncompressed, and that the binary's .debug_info is read from it.
func TestCompressedDWARF(t *testing.T) {
	objcopy, err := exec.LookPath("objcopy")
	if err != nil {
		t.Skip("objcopy not installed")
	}
	path := filepath.Join(t.TempDir(), "z.elf")
	if out, err := exec.Command(objcopy, "--compress-debug-sections=zlib", "testdata/clang-pie.elf", path).CombinedOutput(); err != nil {
		t.Skipf("objcopy: %v: %s", err, out)
	}
	want := openTestdata(t, "clang-pie.elf", Options{})
	got, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if s := got.ELF().Section(".debug_info"); s == nil || s.Flags&elf.SHF_COMPRESSED == 0 {
		t.Fatal("objcopy left .debug_info uncompressed")
	}
	dw, err := want.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	dg, err := got.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	if got.sections == nil || got.sections.inflated[".debug_info"] == nil {
		t.Error("compressed DWARF not read through Sections")
	}
	if w, g := dwarfDump(t, dw), dwarfDump(t, dg); w != g || w == "" {
		t.Errorf("compressed DWARF reads differently:\n%.500s\nwant\n%.500s", g, w)
	}
}

// dwarfDump prints every entry of d and the rows of every unit's line
// table.
func dwarfDump(t *testing.T, d *dwarf.Data) string {
	var b strings.Builder
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return b.String()
		}
		fmt.Fprintf(&b, "%v\n", *e)
		if e.Tag != dwarf.TagCompileUnit {
			continue
		}
		lr, err := d.LineReader(e)
		if err != nil || lr == nil {
			continue
		}
		var row dwarf.LineEntry
		for lr.Next(&row) == nil {
			fmt.Fprintf(&b, "%#x %s:%d\n", row.Address, row.File.Name, row.Line)
		}
	}
}
