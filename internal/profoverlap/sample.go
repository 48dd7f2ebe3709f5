package profoverlap

import (
	"errors"
	"io"
	"math"
	"sort"

	"github.com/profgen/profgen/internal/sampleprof"
)

// epsilon rounds away the imprecision of LLVM's floating-point sums of
// similarities (its reports have 2 to 3 decimals of percentages).
const epsilon = 0.000005

// sampleStats are LLVM's SampleOverlapStats of the program or of one
// function: counts of units (functions, blocks) and of samples.
type sampleStats struct {
	baseName, testName                 string
	overlapCount, overlapSample        uint64
	baseUniqueCount, baseUniqueSample  uint64
	testUniqueCount, testUniqueSample  uint64
	baseCount, baseSample              uint64
	testCount, testSample              uint64
	unionCount, unionSample            uint64
	similarity, baseWeight, testWeight float64
}

// funcStats are a function's sample sum, largest sample and number of hot
// lines, inlinees included.
type funcStats struct {
	sum, max, hotBlocks uint64
}

// addFuncStats adds the lines of f and of its inlinees to s; a line of at
// least hot samples is hot.
func (s *funcStats) addFuncStats(f *sampleprof.FunctionSamples, hot uint64) {
	for _, r := range f.Body {
		s.sum += r.Samples
		s.max = max(s.max, r.Samples)
		if r.Samples >= hot {
			s.hotBlocks++
		}
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			s.addFuncStats(c, hot)
		}
	}
}

func statsOf(f *sampleprof.FunctionSamples, hot uint64) funcStats {
	var s funcStats
	s.addFuncStats(f, hot)
	return s
}

// side is one of the two sample profiles: its functions by key, their
// stats, and its hot threshold.
type side struct {
	prof  *sampleprof.Profile
	funcs map[string]*sampleprof.FunctionSamples
	stats map[string]funcStats
	hot   uint64
}

// funcKey is the key LLVM files a top-level profile under: its name, or
// its calling context in a context-sensitive profile.
func funcKey(f *sampleprof.FunctionSamples) string {
	if f.Context != nil {
		return sampleprof.ContextString(f.Context)
	}
	return f.Name
}

func loadSide(path string) (*side, error) {
	p, err := sampleprof.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &side{prof: p, funcs: map[string]*sampleprof.FunctionSamples{}, stats: map[string]funcStats{}}
	s.hot = sampleprof.ComputeSummary(p).HotThreshold()
	for _, f := range p.Functions {
		k := funcKey(f)
		s.funcs[k] = f
		s.stats[k] = statsOf(f, s.hot)
	}
	return s, nil
}

// sampleOverlap is LLVM's SampleOverlapAggregator.
type sampleOverlap struct {
	base, test    *side
	prof, hotFunc sampleStats
	hotBlock      sampleStats
	lowSimilarity float64
	opts          Options
	listed        []sampleStats // FuncSimilarityDump, by base weight
}

// overlapSample writes llvm-profdata overlap --sample's report.
func overlapSample(w io.Writer, opts Options) error {
	o, err := loadSampleOverlap(opts)
	if err != nil {
		return err
	}
	o.initialize()
	if o.zeroSamples(w) {
		return nil
	}
	o.compute()
	o.dumpProgram(w)
	o.dumpHot(w)
	o.dumpFunctions(w)
	return nil
}

func loadSampleOverlap(opts Options) (*sampleOverlap, error) {
	base, err := loadSide(opts.Base)
	if err != nil {
		return nil, err
	}
	test, err := loadSide(opts.Test)
	if err != nil {
		return nil, err
	}
	if base.prof.ProbeBased != test.prof.ProbeBased {
		return nil, errors.New("cannot compare probe-based profile with non-probe-based profile")
	}
	if base.prof.CS != test.prof.CS {
		return nil, errors.New("cannot compare CS profile with non-CS profile")
	}
	return &sampleOverlap{base: base, test: test, opts: opts, lowSimilarity: float64(opts.SimilarityCutoff) / 1000000}, nil
}

// initialize counts the functions and samples of both profiles.
func (o *sampleOverlap) initialize() {
	for _, s := range o.base.stats {
		o.prof.baseCount++
		o.prof.baseSample += s.sum
	}
	for _, s := range o.test.stats {
		o.prof.testCount++
		o.prof.testSample += s.sum
	}
	o.prof.baseName, o.prof.testName = o.opts.Base, o.opts.Test
}

// compute matches the test profile's functions with the base's, in the
// order LLVM's reader walks the test profile, and aggregates their
// similarities; then the base's functions the test lacks.
func (o *sampleOverlap) compute() {
	unmatched := map[string]bool{}
	for k := range o.base.funcs {
		unmatched[k] = true
	}
	o.prof.unionCount = uint64(len(o.base.funcs))
	for _, f := range o.test.prof.ReaderOrder() {
		k := funcKey(f)
		if unmatched[k] {
			delete(unmatched, k)
			o.matched(k)
		} else {
			o.testOnly(k)
		}
	}
	for _, k := range sortedKeys(unmatched) {
		o.baseOnly(k)
	}
	if math.Abs(o.prof.similarity-1) < epsilon {
		o.prof.similarity = 1
	}
	o.hotFunctions()
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
