package aggregate

import (
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// nonPIE is a non-PIE binary whose one executable segment maps file
// offset 0 at 0x400000 and holds 12 MiB of code.
type nonPIE struct{}

func (nonPIE) Path() string { return "/bin/big" }
func (nonPIE) VaddrOfOffset(off uint64) (uint64, bool) {
	return 0x400000 + off, off < 0xc00000
}

// TestFramesPlacedAsPerfPrintedThem: perf prints call-chain frames relative
// to the DSO (the file offset) and a lone IP as a process address. A
// relative address that happens to fall inside the binary's own absolute
// mapping (code at or above 0x800000 of a non-PIE binary) is still
// relative.
func TestFramesPlacedAsPerfPrintedThem(t *testing.T) {
	script := `1 PERF_RECORD_MMAP2 1/1: [0x400000(0xc00000) @ 0 fe:00 1 0]: r-xp /bin/big
1 
	ffffffff81000130 entry_SYSCALL_64 ([kernel.kallsyms])
	 500123 hot+0x3 (/bin/big)
	 500456 caller+0x16 (/bin/big)
	 2724a __libc_start_call_main+0x7a (/usr/lib/libc.so.6)

1      900123 hot+0x3 (/bin/big)
`
	table := addrspace.New(addrspace.Binary{}, nil)
	a := NewStacks([]StackBinary{nonPIE{}}, table)
	s := perfscript.NewScanner(strings.NewReader(script), "t")
	for s.Next() {
		if r := s.Record(); r.Kind != record.KindSample {
			table.Update(r)
		} else if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	c := a.Counts()
	var got []string
	for _, st := range c.Stacks {
		var locs []string
		for _, l := range st.Locs {
			locs = append(locs, c.Objects[l.Obj].Path+"@"+hex(l.Addr))
		}
		got = append(got, strings.Join(locs, " "))
	}
	want := map[string]bool{
		// the chain: the kernel leaf, then file offsets 0x500123 (the
		// interrupted user IP) and 0x500455 (return address - 1) of /bin/big
		"[kernel.kallsyms]@ffffffff81000130 /bin/big@900123 /bin/big@900455 /usr/lib/libc.so.6@27249": true,
		// the lone IP 0x900123 is a process address: offset 0x500123
		"/bin/big@900123": true,
	}
	if len(got) != len(want) {
		t.Fatalf("stacks %q", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected stack %q", g)
		}
	}
}

func hex(v uint64) string {
	const digits = "0123456789abcdef"
	var b []byte
	for ; v > 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}
