package aggregate

import (
	"fmt"
	"slices"
	"testing"
)

// TestUnmappedFramesKept: a call-chain frame perf placed in no mapping
// (`[unknown] ([unknown])`: JIT code whose mapping was not recorded) stays
// in the stack by its process address, as perf report keeps it, instead
// of leaving its time to its caller; the frame below it is then a caller
// (return address - 1). A lone IP in no mapping is still dropped.
func TestUnmappedFramesKept(t *testing.T) {
	const mmap = "1 PERF_RECORD_MMAP2 1/1: [0x400000(0xc00000) @ 0 fe:00 1 0]: r-xp /bin/big\n"
	tests := []struct {
		name, sample string
		want         []string
		noMapping    uint64
	}{
		{"leaf", "1 \n\t7f0000001006 [unknown] ([unknown])\n\t500123 main+0x3 (/bin/big)\n\n",
			[]string{"[unknown]@7f0000001006 /bin/big@900122"}, 0},
		{"between two frames of the binary", "1 \n\t500123 helper+0x3 (/bin/big)\n\t7f0000001010 [unknown] ([unknown])\n\t500456 main+0x16 (/bin/big)\n\n",
			[]string{"/bin/big@900123 [unknown]@7f000000100f /bin/big@900455"}, 0},
		{"below a kernel frame", "1 \n\tffffffff81000130 irq ([kernel.kallsyms])\n\t7f0000001006 [unknown] ([unknown])\n\t500123 main+0x3 (/bin/big)\n\n",
			[]string{"[kernel.kallsyms]@ffffffff81000130 [unknown]@7f0000001006 /bin/big@900122"}, 0},
		{"chain's end at 0", "1 \n\t500123 main+0x3 (/bin/big)\n\t0 [unknown] ([unknown])\n\n",
			[]string{"/bin/big@900123 [unknown]@0"}, 0},
		{"lone IP", "1      7f0000001006 [unknown] ([unknown])\n", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := aggregateScript(t, mmap+tt.sample, nil)
			if got := stackStrings(c); !slices.Equal(got, tt.want) {
				t.Errorf("stacks %q, want %q", got, tt.want)
			}
			if c.Stats.NoMapping != tt.noMapping {
				t.Errorf("%d samples in no mapping, want %d", c.Stats.NoMapping, tt.noMapping)
			}
		})
	}
}

// stackStrings writes each stack of c as its frames' object@address.
func stackStrings(c *StackCounts) []string {
	var out []string
	for _, st := range c.Stacks {
		s := ""
		for i, l := range st.Locs {
			if i > 0 {
				s += " "
			}
			s += fmt.Sprintf("%s@%x", c.Objects[l.Obj].Path, l.Addr)
		}
		out = append(out, s)
	}
	return out
}
