package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// tinyBinary is a PIE whose code segment (vaddr 0x1000) holds:
//
//	1000: e8 1b 00 00 00      call 1020
//	1005: ff 25 00 00 00 00   jmp *(%rip)      (a PLT stub into libc)
//	1020: 83 c0 01            add $1,%eax
//	1023: 75 fb               jne 1020
//	1025: c3                  ret
func tinyBinary() *binaryInfo {
	code := make([]byte, 0x100)
	copy(code[0x00:], []byte{0xe8, 0x1b, 0, 0, 0, 0xff, 0x25, 0, 0, 0, 0})
	copy(code[0x20:], []byte{0x83, 0xc0, 0x01, 0x75, 0xfb, 0xc3})
	return &binaryInfo{
		PIE: true, Entry: 0x1000, Lo: 0, Hi: 0x3000, inodeStamp: 4111,
		Exec: []segment{{Vaddr: 0x1000, Memsz: 0x100, Off: 0x1000, Filesz: 0x100, data: code}},
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"single-plain", []string{"-single", "OUT/single.script", "-period", "3", "-depth", "4"}},
		{"single-typed", []string{"-single", "OUT/single.script", "-period", "2", "-depth", "3", "-flags", "typed"}},
		{"single-spec", []string{"-single", "OUT/single.script", "-period", "5", "-flags", "spec", "-maps", "testdata/tiny.maps"}},
		{"multi", []string{"-multi", "OUT/multi", "-procs", "2", "-period", "2", "-depth", "2"}},
		{"fork", []string{"-fork", "OUT/fork", "-fork-after", "2", "-period", "2", "-depth", "2"}},
		{"reuse", []string{"-reuse", "OUT/reuse", "-reuse-every", "1", "-period", "2", "-depth", "2"}},
		{"fork-full", []string{"-fork", "OUT/fork", "-full", "-fork-after", "2", "-period", "2", "-depth", "2", "-flags", "typed"}},
		{"max-insns", []string{"-single", "OUT/single.script", "-period", "2", "-max-insns", "9"}},
		{"hybrid", []string{"-hybrid-single", "OUT/hybrid.script", "-hybrid-multi", "OUT/hybrid-multi", "-procs", "2", "-period", "2", "-depth", "2", "-flags", "typed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"-binary", "tiny", "-lackey", "testdata/tiny.lackey"}
			for _, a := range tt.args {
				args = append(args, strings.Replace(a, "OUT", out, 1))
			}
			runTiny(t, args)
			checkGolden(t, filepath.Join("testdata", tt.name+".golden"), dumpDir(t, out))
		})
	}
}

// runTiny runs the generator on tinyBinary with command-line args.
func runTiny(t *testing.T, args []string) { runOn(t, tinyBinary(), args) }

// runOn runs the generator on bin (at /tmp/tiny) with command-line args.
func runOn(t *testing.T, bin *binaryInfo, args []string) {
	t.Helper()
	o, err := parseFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	g := buildGenerator(o, bin, "/tmp/tiny")
	if err := feed(o, g); err != nil {
		t.Fatal(err)
	}
	if err := g.end(); err != nil {
		t.Fatal(err)
	}
}

// dumpDir concatenates the files of dir, sorted by name, each after a
// "=== name" line.
func dumpDir(t *testing.T, dir string) []byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var buf bytes.Buffer
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		buf.WriteString("=== " + e.Name() + "\n")
		buf.Write(data)
	}
	return buf.Bytes()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if testutil.Update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestGeneratorErrors(t *testing.T) {
	tests := []struct {
		name, lackey, want string
	}{
		{"wrong base", "I  04001000,3\nI  00309000,5\n", "no instruction of the binary"},
		{"not the entry", "I  04001000,3\nI  00109020,3\n", "want its entry point 0x109000"},
		{"malformed", "I  04001000,3\nI  0400zz00,3\n", "lackey line 2: malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseFlags([]string{"-binary", "tiny", "-lackey", "-", "-single", filepath.Join(t.TempDir(), "s")})
			if err != nil {
				t.Fatal(err)
			}
			g := buildGenerator(o, tinyBinary(), "/tmp/tiny")
			err = readLackey(strings.NewReader(tt.lackey), g.instruction)
			if err == nil {
				err = g.end()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
