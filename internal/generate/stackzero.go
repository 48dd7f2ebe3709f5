package generate

import (
	"github.com/profgen/profgen/internal/symbolize"
)

// zeroUnsampled gives every line of binary bi's sampled functions funcs
// that no sample hit an explicit zero body count, as llvm-profgen's
// LBR profiles have them (every line of a sampled function is listed):
// the sample loader then reads the line's blocks as not run instead of
// unknown, and does not make them up from the flow around them.
func (g *stackGenerator) zeroUnsampled(bi int, funcs map[uint64]*symbolize.Function) {
	var fs []symbolize.Frame
	for _, fn := range funcs {
		for _, r := range fn.Ranges {
			for in := range g.bins[bi].Code.Insts(r[0], r[1]-1) {
				fs = g.bins[bi].Sym.Frames(in.Addr, fs)
				if len(fs) > 0 {
					g.bodyRecord(bi, fs)
				}
			}
		}
	}
}
