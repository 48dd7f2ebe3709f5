package pseudoprobe

import (
	"debug/elf"
	"testing"
)

// FuzzDecode decodes mutated probe and descriptor sections and walks
// what comes out: nothing may panic, and a success must give probes in
// address order, each with a node.
func FuzzDecode(f *testing.F) {
	ef, err := elf.Open("testdata/probe.elf")
	if err != nil {
		f.Fatal(err)
	}
	desc, probes, err := Sections(ef)
	ef.Close()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(desc, probes)
	f.Add([]byte(enc{}.u64(guidMain).u64(1).str("main").u64(guidFoo).u64(2).str("foo")),
		[]byte(enc{}.u64(guidMain).b(2, 1).b(1, 0x80, 4).b(3, 0xc2, 2, 5).b(7).u64(guidFoo).b(1, 0).b(0, 0x20).u64(guidCold)))
	f.Fuzz(func(t *testing.T, descData, probeData []byte) {
		descs, _ := DecodeDescs(descData)
		table, err := Decode(probeData, Options{FuncStart: startOf})
		if err != nil {
			return
		}
		var last uint64
		for i, p := range table.All() {
			if p.Addr < last || p.Node == nil {
				t.Fatalf("probe %d: address %#x after %#x, node %v", i, p.Addr, last, p.Node)
			}
			last = p.Addr
			descs.FormatProbe(&p)
			descs.InlineContext(&p, true, nil)
			table.CallProbeAt(p.Addr)
		}
		for _, r := range table.Roots {
			r.Children()
		}
	})
}
