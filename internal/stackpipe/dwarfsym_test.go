package stackpipe

import (
	"debug/elf"
	"reflect"
	"testing"

	"github.com/profgen/profgen/internal/testsym"
)

// TestSymbolizerMatchesLLVM compares the inline stacks of every address in
// forky's .text with llvm-symbolizer-19.
func TestSymbolizerMatchesLLVM(t *testing.T) {
	const path = "../../testdata/callstack/forky"
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text := f.Section(".text")
	var addrs []uint64
	for a := text.Addr; a < text.Addr+text.Size; a++ {
		addrs = append(addrs, a)
	}
	ref := testsym.New(t, path, addrs)
	sym, err := newSymbolizer(f)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, a := range addrs {
		got, want := sym.Frames(a), ref.Frames(a)
		if len(want) == 1 && want[0].StartLine == 0 && len(got) == 1 {
			want[0].File = "" // a symbol-table name; LLVM adds the STT_FILE name
		}
		if !reflect.DeepEqual(got, want) {
			if bad++; bad <= 5 {
				t.Errorf("%#x: got %+v\nwant %+v", a, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d addresses differ", bad, len(addrs))
	}
}
