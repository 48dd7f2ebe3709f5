package generate

import (
	"math"
	"slices"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// byBlocks makes binary bi's body samples execution counts, as LBR gives
// them, from the hits of the basic blocks of the sampled functions funcs:
// every instruction of a block runs as often, so a block's hits per
// instruction say how often it ran, whichever of its instructions the
// samples fell on (an expensive load gathers the hits of the cheap
// instructions around it, and a block's few samples land on one line or
// another by chance). A line runs as often as the most run of its
// instructions (llvm-profgen takes the same maximum over LBR ranges), and
// the lines of a sampled block that no sample hit get its count too.
// Counts are scaled so that the binary's total stays.
func (g *stackGenerator) byBlocks(bi int, funcs map[uint64]*symbolize.Function) {
	rates := map[*sampleprof.SampleRecord]float64{}
	var hits uint64
	for _, fn := range funcs {
		hits += g.blockRates(bi, fn, rates)
	}
	var sum float64
	for _, x := range rates {
		sum += x
	}
	if sum == 0 {
		return
	}
	scale := float64(hits) / sum
	for r, x := range rates {
		r.Samples = max(1, uint64(math.Round(x*scale)))
	}
	for _, f := range g.profiles[bi].Functions {
		sampleprof.UpdateTotalSamples(f)
	}
}

// blockRates sets the rate of each line of fn to the largest hits per
// instruction of the blocks its instructions are in, and returns fn's
// hits.
func (g *stackGenerator) blockRates(bi int, fn *symbolize.Function, rates map[*sampleprof.SampleRecord]float64) uint64 {
	var fs []symbolize.Frame
	var total uint64
	for _, b := range g.blocks(bi, fn) {
		var hits uint64
		for _, in := range b {
			hits += g.hits[bi][in.Addr]
		}
		if hits == 0 {
			continue
		}
		total += hits
		rate := float64(hits) / float64(len(b))
		for _, in := range b {
			fs = g.bins[bi].Sym.Frames(in.Addr, fs)
			if len(fs) > 0 {
				r := g.bodyRecord(bi, fs)
				rates[r] = max(rates[r], rate)
			}
		}
	}
	return total
}

// blocks splits the instructions of fn into basic blocks: a block ends at
// a branch or return and starts at the target of a direct branch.
func (g *stackGenerator) blocks(bi int, fn *symbolize.Function) [][]binary.Inst {
	code := g.bins[bi].Code
	var insts []binary.Inst
	leaders := map[uint64]bool{}
	for _, r := range fn.Ranges {
		leaders[r[0]] = true
		for in := range code.Insts(r[0], r[1]-1) {
			insts = append(insts, in)
			if endsBlock(in.Kind) {
				leaders[in.End()] = true
				if t, ok := code.DirectTarget(in); ok {
					leaders[t] = true
				}
			}
		}
	}
	var bs [][]binary.Inst
	for i, in := range insts {
		if i == 0 || leaders[in.Addr] || insts[i-1].End() != in.Addr {
			bs = append(bs, nil)
		}
		bs[len(bs)-1] = append(bs[len(bs)-1], in)
	}
	return slices.DeleteFunc(bs, func(b []binary.Inst) bool { return len(b) == 0 })
}

// bodyRecord returns the body record of the line of inline stack fs,
// making it (and the inlined callers' profiles) if missing.
func (g *stackGenerator) bodyRecord(bi int, fs []symbolize.Frame) *sampleprof.SampleRecord {
	f := g.profiles[bi].Function(fs[0].Func)
	for i := 1; i < len(fs); i++ {
		f = f.Inlinee(g.location(bi, fs[i-1]), fs[i].Func)
	}
	return f.Record(g.location(bi, fs[len(fs)-1]))
}

// blockMax raises the count of every line of a sampled basic block of
// binary bi's sampled functions funcs to the hits of the block's most hit
// line, counting only the hits at the block's own instructions: every
// instruction of a block runs as often, so a line with no hits in a block
// that was hit ran as often as its neighbours, whichever line the block's
// few samples fell on. Hits of the same line elsewhere (a line spread
// over many blocks) do not raise the block.
func (g *stackGenerator) blockMax(bi int, funcs map[uint64]*symbolize.Function) {
	raise := map[*sampleprof.SampleRecord]uint64{}
	var fs []symbolize.Frame
	for _, fn := range funcs {
		for _, b := range g.blocks(bi, fn) {
			lineHits := map[*sampleprof.SampleRecord]uint64{}
			var most uint64
			for _, in := range b {
				if fs = g.bins[bi].Sym.Frames(in.Addr, fs); len(fs) > 0 {
					r := g.bodyRecord(bi, fs)
					lineHits[r] += g.hits[bi][in.Addr]
					most = max(most, lineHits[r])
				}
			}
			if most == 0 {
				continue
			}
			for r := range lineHits {
				raise[r] = max(raise[r], most)
			}
		}
	}
	for r, n := range raise {
		r.Samples = max(r.Samples, n)
	}
	for _, f := range g.profiles[bi].Functions {
		sampleprof.UpdateTotalSamples(f)
	}
}
