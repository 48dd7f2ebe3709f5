package generate

import (
	"math"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// perInstruction turns binary bi's body counts from hits per line into
// hits per instruction of the line, scaled so that the binary's total
// stays: every instruction of a line (in one block) runs as often, so a
// line's hits grow with its length, while the sample loader reads a line's
// count as how often it runs. funcs are the entries of the functions with
// samples.
func (g *stackGenerator) perInstruction(bi int, funcs map[uint64]*symbolize.Function) {
	insts := map[*sampleprof.SampleRecord]uint64{}
	var fs []symbolize.Frame
	for _, fn := range funcs {
		for _, r := range fn.Ranges {
			for in := range g.bins[bi].Code.Insts(r[0], r[1]-1) {
				fs = g.bins[bi].Sym.Frames(in.Addr, fs)
				if rec := g.recordAt(bi, fs); rec != nil {
					insts[rec]++
				}
			}
		}
	}
	var hits, perInst float64
	for rec, n := range insts {
		hits += float64(rec.Samples)
		perInst += float64(rec.Samples) / float64(n)
	}
	if perInst == 0 {
		return
	}
	scale := hits / perInst
	for rec, n := range insts {
		if rec.Samples > 0 {
			rec.Samples = max(1, uint64(math.Round(float64(rec.Samples)*scale/float64(n))))
		}
	}
}

// recordAt returns the body record of the line of inline stack fs, nil
// when it has none.
func (g *stackGenerator) recordAt(bi int, fs []symbolize.Frame) *sampleprof.SampleRecord {
	if len(fs) == 0 {
		return nil
	}
	f := g.profiles[bi].Functions[fs[0].Func]
	for i := 1; i < len(fs) && f != nil; i++ {
		f = f.Callsites[g.location(bi, fs[i-1])][fs[i].Func]
	}
	if f == nil {
		return nil
	}
	return f.Body[g.location(bi, fs[len(fs)-1])]
}
