package profoverlap

import (
	"math"

	"github.com/profgen/profgen/internal/sampleprof"
)

// matchStatus says which profiles hold a unit (a line, a call site, an
// inlinee) of a matched function.
type matchStatus int

const (
	inBoth matchStatus = iota
	baseOnly
	testOnly
)

// testOnly adds a function only the test profile has.
func (o *sampleOverlap) testOnly(k string) {
	st := o.test.stats[k]
	fo := sampleStats{testName: k, testSample: st.sum, testUniqueSample: st.sum}
	o.prof.testUniqueCount++
	o.prof.testUniqueSample += st.sum
	o.updateHotBlocks(0, st.sum, st.hotBlocks)
	o.prof.similarity += o.byImportance(o.funcSimilarity(0, 0, st.sum), 0, st.sum)
	o.prof.unionCount++
	o.prof.unionSample += st.sum
	o.maybeList(fo, false)
}

// baseOnly adds a function only the base profile has.
func (o *sampleOverlap) baseOnly(k string) {
	st := o.base.stats[k]
	o.prof.baseUniqueCount++
	o.prof.baseUniqueSample += st.sum
	o.updateHotBlocks(st.sum, 0, st.hotBlocks)
	o.prof.similarity += o.byImportance(o.funcSimilarity(0, st.sum, 0), st.sum, 0)
	o.prof.unionSample += st.sum
}

// matched adds a function both profiles have.
func (o *sampleOverlap) matched(k string) {
	fo := sampleStats{baseName: k, testName: k, baseSample: o.base.stats[k].sum, testSample: o.test.stats[k].sum}
	o.prof.overlapCount++
	internal := o.internalSimilarity(o.base.funcs[k], o.test.funcs[k], &fo)
	if math.Abs(internal) < epsilon {
		internal = 0
	}
	fo.similarity = o.funcSimilarity(internal, fo.baseSample, fo.testSample)
	o.prof.similarity += o.byImportance(fo.similarity, fo.baseSample, fo.testSample)
	o.prof.overlapSample += fo.overlapSample
	o.prof.unionSample += fo.unionSample
	o.prof.baseUniqueSample += fo.baseUniqueSample
	o.prof.testUniqueSample += fo.testUniqueSample
	o.maybeList(fo, true)
}

// maybeList keeps fo for the function-level details when --value-cutoff,
// --similarity-cutoff or --function selects it.
func (o *sampleOverlap) maybeList(fo sampleStats, matched bool) {
	if o.test.stats[fo.testName].max < o.opts.ValueCutoff &&
		!(matched && fo.similarity < o.lowSimilarity) &&
		!(matched && o.opts.Function != "" && containsName(fo.baseName, o.opts.Function)) {
		return
	}
	fo.baseWeight = float64(fo.baseSample) / float64(o.prof.baseSample)
	fo.testWeight = float64(fo.testSample) / float64(o.prof.testSample)
	o.listed = append(o.listed, fo)
}

// funcSimilarity weighs a function's internal similarity by how far apart
// its shares of the two profiles are.
func (o *sampleOverlap) funcSimilarity(internal float64, baseSum, testSum uint64) float64 {
	baseFrac := float64(baseSum) / float64(o.prof.baseSample)
	testFrac := float64(testSum) / float64(o.prof.testSample)
	return internal * (1 - math.Abs(baseFrac-testFrac))
}

// byImportance weighs a function's similarity by its mean share of the
// two profiles, for the program's similarity.
func (o *sampleOverlap) byImportance(similarity float64, baseSum, testSum uint64) float64 {
	baseFrac := float64(baseSum) / float64(o.prof.baseSample) / 2
	testFrac := float64(testSum) / float64(o.prof.testSample) / 2
	return similarity * (baseFrac + testFrac)
}

// updateHotBlocks counts hot lines (hotBlocks of them) hot in either
// profile.
func (o *sampleOverlap) updateHotBlocks(baseSum, testSum, hotBlocks uint64) {
	baseHot, testHot := baseSum >= o.base.hot, testSum >= o.test.hot
	if !baseHot && !testHot {
		return
	}
	o.hotBlock.unionCount += hotBlocks
	if baseHot {
		o.hotBlock.baseCount += hotBlocks
	}
	if testHot {
		o.hotBlock.testCount += hotBlocks
	}
	if baseHot && testHot {
		o.hotBlock.overlapCount += hotBlocks
	}
}

// hotFunctions counts the functions hot in each profile and in both.
func (o *sampleOverlap) hotFunctions() {
	baseHot := hotSet(o.base)
	testHot := hotSet(o.test)
	o.hotFunc.baseCount = uint64(len(baseHot))
	o.hotFunc.testCount = uint64(len(testHot))
	o.hotFunc.unionCount = o.hotFunc.testCount
	for k := range baseHot {
		if testHot[k] {
			o.hotFunc.overlapCount++
		} else {
			o.hotFunc.unionCount++
		}
	}
}

// hotSet returns the functions of s whose largest line is hot.
func hotSet(s *side) map[string]bool {
	hot := map[string]bool{}
	for k, st := range s.stats {
		if st.max >= s.hot {
			hot[k] = true
		}
	}
	return hot
}

// unitStats adds one unit of a matched function to fo, and its
// dissimilarity to *diff.
func (o *sampleOverlap) unitStats(baseSum, testSum, hotBlocks uint64, fo *sampleStats, diff *float64, st matchStatus) {
	switch st {
	case baseOnly:
		testSum = 0
		fo.baseUniqueSample += baseSum
	case testOnly:
		baseSum = 0
		fo.testUniqueSample += testSum
	default:
		fo.overlapCount++
	}
	fo.unionSample += max(baseSum, testSum)
	fo.overlapSample += min(baseSum, testSum)
	*diff += 1 - blockSimilarity(baseSum, testSum, fo)
	o.updateHotBlocks(baseSum, testSum, hotBlocks)
}

// blockSimilarity is 1 less the distance between the two counts' shares
// of their function's samples.
func blockSimilarity(baseSum, testSum uint64, fo *sampleStats) float64 {
	var baseFrac, testFrac float64
	if fo.baseSample > 0 {
		baseFrac = float64(baseSum) / float64(fo.baseSample)
	}
	if fo.testSample > 0 {
		testFrac = float64(testSum) / float64(fo.testSample)
	}
	return 1 - math.Abs(baseFrac-testFrac)
}

// unmatchedCallee adds an inlinee only one profile has, as one unit.
func (o *sampleOverlap) unmatchedCallee(f *sampleprof.FunctionSamples, fo *sampleStats, diff *float64, st matchStatus) {
	if st == baseOnly {
		s := statsOf(f, o.base.hot)
		o.unitStats(s.sum, 0, s.hotBlocks, fo, diff, st)
		return
	}
	s := statsOf(f, o.test.hot)
	o.unitStats(0, s.sum, s.hotBlocks, fo, diff, st)
}

// internalSimilarity compares the lines, call sites and inlinees of a
// function (or inlinee) in both profiles, in LLVM's order: (2 - the sum of
// the units' dissimilarities) / 2.
func (o *sampleOverlap) internalSimilarity(base, test *sampleprof.FunctionSamples, fo *sampleStats) float64 {
	var diff float64
	for _, u := range joinLocations(base.Body, test.Body) {
		var b, t uint64
		if r := base.Body[u.key]; r != nil {
			b = r.Samples
		}
		if r := test.Body[u.key]; r != nil {
			t = r.Samples
		}
		o.unitStats(b, t, 1, fo, &diff, u.status)
	}
	for _, u := range joinLocations(base.Callsites, test.Callsites) {
		o.callsite(base.Callsites[u.key], test.Callsites[u.key], fo, &diff, u.status)
	}
	return (2 - diff) / 2
}

// callsite compares the inlinees of one call site.
func (o *sampleOverlap) callsite(base, test map[string]*sampleprof.FunctionSamples, fo *sampleStats, diff *float64, st matchStatus) {
	switch st {
	case baseOnly:
		for _, f := range sampleprof.SortedInlinees(base) {
			o.unmatchedCallee(f, fo, diff, st)
		}
		return
	case testOnly:
		for _, f := range sampleprof.SortedInlinees(test) {
			o.unmatchedCallee(f, fo, diff, st)
		}
		return
	}
	for _, u := range joinNames(base, test) {
		switch u.status {
		case baseOnly:
			o.unmatchedCallee(base[u.key], fo, diff, u.status)
		case testOnly:
			o.unmatchedCallee(test[u.key], fo, diff, u.status)
		default:
			*diff += 2 - 2*o.internalSimilarity(base[u.key], test[u.key], fo)
		}
	}
}
