package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/pprof/profile"
)

// TestPprofOfCBinary: a frame in no mapping stays in the pprof of a C
// binary as its address alone, with the call from main to it; the kernel
// frames above a C binary's frames stay unless --fold-kernel (a C binary
// is no Go binary).
func TestPprofOfCBinary(t *testing.T) {
	const mmap = "PERF_RECORD_MMAP2 1234/1234: [0x401000(0x1000) @ 0x1000 fe:00 1 2]: r-xp /somewhere/else/t.bin\n"
	tests := []struct {
		name, chain string
		opts        Options
		want        []string // innermost function (or address) first
	}{
		{"unknown leaf", "\t7f0000001006 [unknown] ([unknown])\n\t1139 main (/somewhere/else/t.bin)\n", Options{NoRepairSkid: true},
			[]string{"0x7f0000001006", "main"}},
		{"kernel above", "\tffffffff81000130 entry_SYSCALL_64 ([kernel.kallsyms])\n\t1139 main (/somewhere/else/t.bin)\n", Options{NoRepairSkid: true},
			[]string{"entry_SYSCALL_64", "main"}},
		{"kernel above, --fold-kernel", "\tffffffff81000130 entry_SYSCALL_64 ([kernel.kallsyms])\n\t1139 main (/somewhere/else/t.bin)\n",
			Options{NoRepairSkid: true, FoldKernel: true}, []string{"main"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := filepath.Join(t.TempDir(), "t.script")
			if err := os.WriteFile(script, []byte(mmap+"1234 \n"+tt.chain+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tt.opts.PerfScript, tt.opts.Binaries, tt.opts.Format = script, []string{"testdata/t.bin"}, "pprof"
			p, err := profile.ParseData(convert(t, tt.opts))
			if err != nil {
				t.Fatal(err)
			}
			if got := locationNames(p.Sample[0].Location); !slices.Equal(got, tt.want) {
				t.Errorf("stack %q, want %q", got, tt.want)
			}
		})
	}
}

// locationNames names each location by its innermost function, or by its
// address when it has no line.
func locationNames(locs []*profile.Location) []string {
	var out []string
	for _, l := range locs {
		if len(l.Line) == 0 {
			out = append(out, fmt.Sprintf("%#x", l.Address))
			continue
		}
		out = append(out, l.Line[0].Function.Name)
	}
	return out
}
