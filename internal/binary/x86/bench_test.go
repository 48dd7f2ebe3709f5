package x86

import (
	"debug/elf"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/binary/insn"
)

// BenchmarkDecodeText compares the decoder with and without its fast path
// on the text of $PROFGEN_BENCH_BINARY, else a checked-in binary.
func BenchmarkDecodeText(b *testing.B) {
	path := os.Getenv("PROFGEN_BENCH_BINARY")
	if path == "" {
		path = filepath.Join("..", "testdata", "gcc-cet.elf")
	}
	ef, err := elf.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer ef.Close()
	text := ef.Section(".text")
	if text == nil {
		b.Skip("no .text")
	}
	data, err := text.Data()
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct {
		name   string
		decode insn.Decoder
	}{{"fast", Decode}, {"x86asm", decodeInstSlow}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for off := 0; off < len(data); {
					n, _, _ := bb.decode(data[off:])
					off += n
				}
			}
		})
	}
}
