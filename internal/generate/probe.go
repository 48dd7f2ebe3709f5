package generate

import (
	"fmt"

	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Probe-based profiles (clang -fpseudo-probe-for-profiling), as
// llvm-profgen 19's ProfileGenerator::generateProbeBasedProfile: body
// samples are keyed by probe index (and probe discriminator) instead of
// line offset, each function carries its CFG checksum, and the inline
// tree is the one the probes record, not DWARF's.
//
// Ranges: every probe at an instruction address of a (disjoint) range
// counts the range's count, and probes of one function at several
// addresses (duplicated code) add up. The entry probe's count is the
// function's head samples. Branches: a branch to a function entry from an
// address with a call probe is a call target at that probe.

// ProbeBinary is what probe-based generation reads of the profiled
// binary: its two probe sections and its symbols (every .symtab symbol;
// a top-level probe record starts at the symbol whose name's MD5 is its
// GUID).
type ProbeBinary struct {
	Desc, Probes []byte
	Symbols      []symbolize.Symbol
}

// ProbeProfile builds the probe-based sample profile of c. It decodes
// the probes of the functions that have samples only, as llvm-profgen
// does, and returns their descriptors too. The probes of those functions
// in zero ([start, end) ranges; --fill-zero-for-all-funcs: every
// function's) get zero counts where nothing was sampled; without zero,
// those in the functions of sampled ranges.
func ProbeProfile(c Counters, code Code, sym Symbolizer, bin ProbeBinary, zero [][2]uint64) (*sampleprof.Profile, *pseudoprobe.Descs, error) {
	descs, table, err := DecodeProbes(bin, profiledFunctions(c, sym))
	if err != nil {
		return nil, nil, err
	}
	g := &probeGenerator{prof: sampleprof.NewProfile(), descs: descs, table: table}
	g.prof.ProbeBased = true
	g.addRanges(disjointRanges(withZeroRanges(c.Ranges, sym, zero)), code)
	for b, n := range c.Branches {
		g.addBranch(b, n, sym)
	}
	if g.err != nil {
		return nil, nil, g.err
	}
	for _, f := range g.prof.Functions {
		updateCallsiteSamples(f)
	}
	return g.prof, descs, nil
}

// DecodeProbes decodes the probe descriptors, and the probes of the
// profiled functions only, as llvm-profgen does (its GUID filter): the
// probe records of other functions are read past.
func DecodeProbes(bin ProbeBinary, profiled map[*symbolize.Function]bool) (*pseudoprobe.Descs, *pseudoprobe.Table, error) {
	descs, err := pseudoprobe.DecodeDescs(bin.Desc)
	if err != nil {
		return nil, nil, err
	}
	table, err := pseudoprobe.Decode(bin.Probes, probeOptions(profiled, bin.Symbols))
	if err != nil {
		return nil, nil, err
	}
	return descs, table, nil
}

// profiledFunctions are the functions a range starts in or a branch
// leaves or enters (llvm-profgen's collectFunctionsFromRawProfile).
func profiledFunctions(c Counters, sym Symbolizer) map[*symbolize.Function]bool {
	fs := map[*symbolize.Function]bool{}
	add := func(addr uint64) {
		if r := sym.FuncRangeAt(addr); r != nil {
			fs[r.Func] = true
		}
	}
	for r := range c.Ranges {
		add(r.Start)
	}
	for b := range c.Branches {
		add(b.From)
		add(b.To)
	}
	return fs
}

// probeOptions keeps the probe records of the profiled functions (by the
// MD5 of their DWARF name) and places each at the symbols that start one
// of their ranges.
func probeOptions(profiled map[*symbolize.Function]bool, syms []symbolize.Symbol) pseudoprobe.Options {
	byAddr := map[uint64][]string{}
	for _, s := range syms {
		byAddr[s.Addr] = append(byAddr[s.Addr], s.Name)
	}
	keep := map[uint64]bool{}
	starts := map[uint64]uint64{}
	for f := range profiled {
		keep[sampleprof.MD5Name(f.Name)] = true
		for _, r := range f.Ranges {
			for _, name := range byAddr[r[0]] {
				starts[sampleprof.MD5Name(name)] = r[0]
			}
		}
	}
	return pseudoprobe.Options{
		FuncStart: func(guid uint64) (uint64, bool) { a, ok := starts[guid]; return a, ok },
		Keep:      func(guid uint64) bool { return keep[guid] },
	}
}

type probeGenerator struct {
	prof   *sampleprof.Profile
	descs  *pseudoprobe.Descs
	table  *pseudoprobe.Table
	frames []pseudoprobe.Frame
	err    error
}

// addRanges counts, for every probe at an instruction of a range, the
// range's count; then adds each probe's count to its function.
func (g *probeGenerator) addRanges(ranges []countedRange, code Code) {
	all := g.table.All()
	counts := make(map[int]uint64)
	for _, r := range ranges {
		if r.start > r.end {
			continue
		}
		i, end := g.table.Span(r.start, r.end)
		if i == end {
			continue
		}
		for addr := range code.Insts(r.start, r.end) {
			for i < end && all[i].Addr < addr {
				i++
			}
			for ; i < end && all[i].Addr == addr; i++ {
				counts[i] += r.count
			}
			if i == end {
				break
			}
		}
	}
	for i, n := range counts {
		g.addProbe(&all[i], n)
	}
}

// addProbe adds n samples at probe p: to the totals of every function on
// its inline context, to its own function's body at its index, and to the
// head samples when it is the entry probe.
func (g *probeGenerator) addProbe(p *pseudoprobe.Probe, n uint64) {
	leaf := g.leafProfile(p, n)
	if leaf == nil {
		return
	}
	leaf.Record(sampleprof.LineLocation{LineOffset: p.Index, Discriminator: p.Discriminator}).Samples += n
	if p.IsEntry() {
		leaf.HeadSamples += n
	}
}

// leafProfile returns the profile of p's function, nested under its
// inlining callers, adding total to every frame on the way and setting
// their checksums.
func (g *probeGenerator) leafProfile(p *pseudoprobe.Probe, total uint64) *sampleprof.FunctionSamples {
	frames, ok := g.descs.InlineContext(p, true, g.frames)
	g.frames = frames
	if !ok {
		if g.err == nil {
			g.err = fmt.Errorf("%s: probe %d at %#x names a function %s does not describe", pseudoprobe.ProbeSection, p.Index, p.Addr, pseudoprobe.DescSection)
		}
		return nil
	}
	f := g.prof.Function(frames[0].Name)
	g.account(f, frames[0], total)
	for i := 1; i < len(frames); i++ {
		f = f.Inlinee(sampleprof.LineLocation{LineOffset: frames[i-1].Index}, frames[i].Name)
		g.account(f, frames[i], total)
	}
	return f
}

func (g *probeGenerator) account(f *sampleprof.FunctionSamples, fr pseudoprobe.Frame, total uint64) {
	f.TotalSamples += total
	f.Checksum = g.descs.Lookup(fr.GUID).Hash
}

// addBranch counts a branch from a call probe's address to a function
// entry as a call target of that probe.
func (g *probeGenerator) addBranch(b record.Branch, n uint64, sym Symbolizer) {
	r := sym.FuncRangeStartingAt(b.To)
	if r == nil || !r.IsEntry {
		return
	}
	p := g.table.CallProbeAt(b.From)
	if p == nil {
		return
	}
	if leaf := g.leafProfile(p, 0); leaf != nil {
		leaf.AddCallTarget(sampleprof.LineLocation{LineOffset: p.Index}, symbolize.CanonicalName(r.Func.Name), n)
	}
}
