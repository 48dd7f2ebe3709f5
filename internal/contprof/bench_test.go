package contprof

import "testing"

// BenchmarkDecodeOTLP reads a message of 10,000 stacks of 32 frames and
// 100,000 samples of 3 timestamps each.
func BenchmarkDecodeOTLP(b *testing.B) {
	const stacks, depth, samples = 10000, 32, 100000
	d := stringTable().m(dictMappings, nil).
		m(dictMappings, pb{}.v(1, 0x1000).v(2, 1<<40).v(4, sApp)).
		m(dictLocations, nil)
	for i := range stacks * depth {
		d = d.m(dictLocations, pb{}.v(1, 1).v(2, 0x1000+uint64(i)))
	}
	d = d.m(dictStacks, nil)
	for s := range stacks {
		locs := make([]uint64, depth)
		for j := range locs {
			locs[j] = uint64(1 + s*depth + j)
		}
		d = d.m(dictStacks, pb{}.packed(1, locs...))
	}
	p := cpuProfile()
	for i := range samples {
		p = p.m(2, pb{}.v(1, uint64(1+i%stacks)).stamps(5, 3))
	}
	msg := otlpMessage(d, p)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(msg, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
