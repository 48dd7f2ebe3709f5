package callstack_test

import (
	"fmt"
	"strings"

	"github.com/profgen/profgen/internal/callstack"
)

// layout is a binary whose text segment is at file offset 0x1000, vaddr
// 0x401000 (a non-PIE executable).
type layout struct{}

func (layout) Path() string { return "/bin/app" }

func (layout) VaddrOfOffset(off uint64) (uint64, bool) {
	return off - 0x1000 + 0x401000, off >= 0x1000 && off < 0x2000
}

func ExampleAggregator() {
	script := `app 10 1.000000:  1000000 cpu-clock: 
	            1130 work+0x10 (/bin/app)
	            1185 main+0x25 (/bin/app)
	           2724a __libc_start_call_main+0x7a (/lib/libc.so.6)

app 11 1.001000:  1000000 cpu-clock: 
	ffffffff81000130 entry_SYSCALL_64+0x30 ([kernel.kallsyms])
	            1130 work+0x10 (/bin/app)
	            1185 main+0x25 (/bin/app)
`
	a := callstack.NewAggregator([]callstack.Binary{layout{}})
	r := callstack.NewScriptReader(strings.NewReader(script), "example")
	for r.Next() {
		if err := a.Add(r.Record()); err != nil {
			fmt.Println(err)
			return
		}
	}
	c := a.Counts()
	for _, s := range c.Stacks {
		for _, l := range s.Locs {
			fmt.Printf("%s:%#x ", c.Objects[l.Obj].Path, l.Addr)
		}
		fmt.Println("count", s.Count)
	}
	// Output:
	// /bin/app:0x401130 /bin/app:0x401184 /lib/libc.so.6:0x27249 count 1
	// [kernel.kallsyms]:0xffffffff81000130 /bin/app:0x401130 /bin/app:0x401184 count 1
}
