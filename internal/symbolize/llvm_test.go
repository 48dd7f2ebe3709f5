package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// llvmFrame is one frame of llvm-symbolizer's JSON output.
type llvmFrame struct {
	FunctionName  string
	Line          uint32
	StartLine     uint32
	Discriminator uint32
}

// TestMatchesLLVMSymbolizer compares the inline stacks of every line-table
// address of the test binaries (and of the files in
// $PROFGEN_SYMBOLIZE_CHECK, separated by ':') with llvm-symbolizer-19's.
// The outermost frame's name is not compared: llvm-symbolizer takes it from
// the ELF symbol table, which llvm-profgen turns off.
func TestMatchesLLVMSymbolizer(t *testing.T) {
	tool := testutil.Tool(t, "llvm-symbolizer-19")
	files, _ := filepath.Glob("../generate/testdata/*.bin")
	if extra := os.Getenv("PROFGEN_SYMBOLIZE_CHECK"); extra != "" {
		files = append(files, strings.Split(extra, ":")...)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkAgainstLLVM(t, tool, path) })
	}
}

func checkAgainstLLVM(t *testing.T, tool, path string) {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := newFromELF(f)
	if err != nil {
		t.Fatal(err)
	}
	addrs := sampleAddrs(tab, 20000)
	var in bytes.Buffer
	for _, a := range addrs {
		fmt.Fprintf(&in, "%#x\n", a)
	}
	cmd := exec.Command(tool, "--obj="+path, "--output-style=JSON", "--inlines", "--functions=linkage", "--no-demangle")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	mismatches := 0
	for _, a := range addrs {
		var res struct{ Symbol []llvmFrame }
		if err := dec.Decode(&res); err != nil {
			t.Fatal(err)
		}
		got := tab.Frames(a, nil)
		if !sameStack(got, res.Symbol) {
			if mismatches++; mismatches <= 5 {
				t.Errorf("%#x: got %+v, llvm-symbolizer %+v", a, got, res.Symbol)
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d addresses differ", mismatches, len(addrs))
	}
}

// sampleAddrs returns up to n line-table addresses spread over the table.
func sampleAddrs(tab *Table, n int) []uint64 {
	step := max(1, len(tab.lines)/n)
	var out []uint64
	for i := 0; i < len(tab.lines); i += step {
		if r := tab.lines[i]; !r.endSequence && r.addr != 0 {
			out = append(out, r.addr)
		}
	}
	return out
}

// sameStack compares ours (outermost first) with LLVM's (leaf first).
func sameStack(got []Frame, want []llvmFrame) bool {
	if len(want) == 1 && len(got) == 0 && want[0].StartLine == 0 {
		return true // no subprogram: a line-table or symbol-table frame llvm-profgen drops
	}
	if len(got) != len(want) {
		return false
	}
	for i, g := range got {
		w := want[len(want)-1-i]
		if g.Line != w.Line || g.StartLine != w.StartLine || g.Discriminator != w.Discriminator {
			return false
		}
		if i > 0 && g.Func != w.FunctionName {
			return false
		}
	}
	return true
}
