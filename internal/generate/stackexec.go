package generate

import (
	"math"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// addExecutionCalls estimates calls in executions, not in hits: a
// function's calls are the samples of its entry block per instruction
// of the block (every call runs each of them once, and a sample hits an
// instruction in proportion to how often it runs), shared among its call
// sites by their part of its inclusive samples. A call site's line is hit
// in proportion to its calls times its instructions, so that is the call
// target written, in the units of the caller's body samples; the head
// samples are the entry block's weight, in the units of the callee's.
func (g *stackGenerator) addExecutionCalls(bi int) {
	cg, p := g.calls[bi], g.profiles[bi]
	calls := map[string]float64{}
	for fn, entry := range cg.entries {
		if f := p.Functions[fn]; f != nil {
			f.HeadSamples = g.entryWeight(bi, entry)
			calls[fn] = g.entryExecutions(bi, entry)
		}
	}
	lines := lineLengths{}
	for e, n := range cg.edges {
		share := float64(n) / float64(cg.inclusive[e.callee])
		w := uint64(math.Round(calls[e.callee] * share * float64(g.siteLineLength(bi, e.site, lines))))
		if w == 0 {
			continue
		}
		g.callSiteProfile(bi, e.site).AddCallTarget(g.location(bi, g.innermost(e.site)), e.callee, w)
	}
	for _, f := range p.Functions {
		updateCallsiteSamples(f)
	}
}

// entryExecutions is the samples of the entry block of the function at
// entry per instruction of the block: how often it ran, in samples.
func (g *stackGenerator) entryExecutions(bi int, entry uint64) float64 {
	var hits uint64
	n := 0
	for in := range g.bins[bi].Code.Insts(entry, ^uint64(0)) {
		hits += g.hits[bi][in.Addr]
		if n++; n >= maxEntryBlock || endsBlock(in.Kind) {
			break
		}
	}
	return float64(hits) / float64(max(n, 1))
}

// lineKey is a line of an inline stack: its innermost function, the
// depth of the stack and the line's location.
type lineKey struct {
	fn    string
	depth int
	loc   sampleprof.LineLocation
}

// lineLengths holds, for the functions decoded so far (by their first
// address), the block of each instruction and the instructions of each
// line in each block.
type lineLengths map[uint64]*functionBlocks

type functionBlocks struct {
	block map[uint64]int    // block number of each instruction address
	lines map[blockLine]int // instructions of a line in a block
}

type blockLine struct {
	block int
	line  lineKey
}

// siteLineLength is the number of instructions of the line of the call
// instruction at site in its block (at least 1): the instructions each
// call runs on that line. Blocks end at branches and returns.
func (g *stackGenerator) siteLineLength(bi int, site aggregate.Loc, lines lineLengths) int {
	r := g.bins[bi].Sym.FuncRangeAt(site.Addr)
	if r == nil || len(r.Func.Ranges) == 0 {
		return 1
	}
	fb, ok := lines[r.Func.Ranges[0][0]]
	if !ok {
		fb = g.functionBlocks(bi, r.Func)
		lines[r.Func.Ranges[0][0]] = fb
	}
	b, ok := fb.block[site.Addr]
	if !ok {
		return 1
	}
	return max(fb.lines[blockLine{b, g.lineOf(bi, g.frames(site))}], 1)
}

// functionBlocks decodes fn into blocks and counts the instructions of
// each line in each block. A site's address is inside its call
// instruction, so every byte of an instruction maps to its block.
func (g *stackGenerator) functionBlocks(bi int, fn *symbolize.Function) *functionBlocks {
	fb := &functionBlocks{block: map[uint64]int{}, lines: map[blockLine]int{}}
	var fs []symbolize.Frame
	b := 0
	for _, r := range fn.Ranges {
		for in := range g.bins[bi].Code.Insts(r[0], r[1]-1) {
			for a := in.Addr; a < in.End(); a++ {
				fb.block[a] = b
			}
			fs = g.bins[bi].Sym.Frames(in.Addr, fs)
			if len(fs) > 0 {
				fb.lines[blockLine{b, g.lineOf(bi, fs)}]++
			}
			if endsBlock(in.Kind) {
				b++
			}
		}
		b++
	}
	return fb
}

func (g *stackGenerator) lineOf(bi int, fs []symbolize.Frame) lineKey {
	if len(fs) == 0 {
		return lineKey{}
	}
	last := fs[len(fs)-1]
	return lineKey{fn: last.Func, depth: len(fs), loc: g.location(bi, last)}
}
