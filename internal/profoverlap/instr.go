package profoverlap

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/profshow"
)

// sums are LLVM's CountSumOrPercent: a count of entries, the sum of edge
// counters and the sum of each value kind's counts, or these as shares of
// the test profile's.
type sums struct {
	entries uint64
	counts  float64
	values  [instrprof.NumValueKinds]float64
}

// add adds the counters and values of r, as InstrProfRecord's
// accumulateCounts does (integer sums per record, as LLVM's wrap).
func (s *sums) add(r *instrprof.Record) {
	s.entries += uint64(len(r.Counts))
	var total uint64
	for _, c := range r.Counts {
		total += c
	}
	s.counts += float64(total)
	for k := range r.Sites {
		s.values[k] += float64(valueTotal(r.Sites[k]))
	}
}

// valueTotal is the sum of the counts of every value of sites.
func valueTotal(sites [][]instrprof.Value) uint64 {
	var total uint64
	for _, site := range sites {
		for _, v := range site {
			total += v.Count
		}
	}
	return total
}

// stats are LLVM's OverlapStats of the program or of one function: the
// base's and the test's totals, the overlap, and the test's shares that
// are in mismatching functions or only in the test profile.
type stats struct {
	base, test, overlap, mismatch, unique sums
	valid                                 bool
	function                              bool // function level, of name and hash
	name                                  string
	hash                                  uint64
	heading                               string // the program level's first line
}

// addShare adds the shares of the test profile's totals that f holds to s.
func (s *sums) addShare(f, test sums) {
	s.entries++
	s.counts += f.counts / test.counts
	for k := range s.values {
		if test.values[k] >= 1 {
			s.values[k] += f.values[k] / test.values[k]
		}
	}
}

// score is LLVM's OverlapStats::score: the smaller of the two counts'
// shares of their profiles' sums, or 0 when a sum is below 1.
func score(a, b uint64, sumA, sumB float64) float64 {
	if sumA < 1 || sumB < 1 {
		return 0
	}
	return min(float64(a)/sumA, float64(b)/sumB)
}

// baseIndex holds the base profile's records by name, then CFG hash,
// duplicates merged as llvm-profdata's writer merges them.
type baseIndex map[string]map[uint64]*instrprof.Record

func indexBase(recs []*instrprof.Record) baseIndex {
	p := instrprof.NewProfile()
	for _, r := range recs {
		p.Add(r, 0, 1, instrprof.Origin{})
	}
	p.Resolve()
	idx := baseIndex{}
	for _, f := range p.Funcs() {
		if idx[f.Name] == nil {
			idx[f.Name] = map[uint64]*instrprof.Record{}
		}
		idx[f.Name][f.Hash] = &f.Record
	}
	return idx
}

// programSums totals recs as InstrProfReader::accumulateCounts does: in an
// IR profile, only the context-sensitive records with cs, only the others
// without.
func programSums(recs []*instrprof.Record, kind instrprof.Kind, cs bool) sums {
	var s sums
	n := uint64(0)
	for _, r := range recs {
		if kind&instrprof.KindIR != 0 && (r.Hash&instrprof.CSFlagInHash != 0) != cs {
			continue
		}
		s.add(r)
		n++
	}
	s.entries = n
	return s
}

// overlapInstr writes llvm-profdata overlap's report on two
// instrumentation profiles: a function-level report for each test record
// that --function or --value-cutoff selects, then the program level.
func overlapInstr(w io.Writer, opts Options) error {
	baseRecs, baseInfo, err := profshow.ReadInstrRecords(opts.Base)
	if err != nil {
		return fmt.Errorf("error in getting profile count sums: %w", err)
	}
	testRecs, testInfo, err := profshow.ReadInstrRecords(opts.Test)
	if err != nil {
		return fmt.Errorf("error in getting profile count sums: %w", err)
	}
	prog := &stats{valid: true, heading: heading(opts)}
	prog.base = programSums(baseRecs, baseInfo.Kind, opts.CS)
	prog.test = programSums(testRecs, testInfo.Kind, opts.CS)
	if zeroSum(w, prog, opts) {
		return nil
	}
	base := indexBase(baseRecs)
	for _, r := range testRecs {
		fn := &stats{function: true, name: r.Name, hash: r.Hash}
		prog.record(fn, base, r, opts)
		fn.dump(w)
	}
	prog.dump(w)
	return nil
}

// zeroSum reports a profile whose edge counters sum to zero, as llvm
// does instead of an overlap.
func zeroSum(w io.Writer, prog *stats, opts Options) bool {
	switch {
	case prog.base.counts < 1:
		fmt.Fprintf(w, "Sum of edge counts for profile %s is 0.\n", opts.Base)
	case prog.test.counts < 1:
		fmt.Fprintf(w, "Sum of edge counts for profile %s is 0.\n", opts.Test)
	default:
		return false
	}
	return true
}

// record adds the test record r to the program's stats, and to fn's, as
// InstrProfWriter::overlapRecord does: a name the base lacks is unique
// to the test, a hash it lacks a mismatch.
func (prog *stats) record(fn *stats, base baseIndex, r *instrprof.Record, opts Options) {
	fn.test.add(r)
	hashes, ok := base[r.Name]
	switch {
	case !ok:
		prog.unique.addShare(fn.test, prog.test)
		return
	case fn.test.counts < 1:
		prog.overlap.entries++
		return
	case hashes[r.Hash] == nil:
		prog.mismatch.addShare(fn.test, prog.test)
		return
	}
	cutoff := opts.ValueCutoff
	if opts.Function != "" && containsName(r.Name, opts.Function) {
		cutoff = 0
	}
	prog.compare(fn, hashes[r.Hash], r, cutoff)
}

// compare scores the test record other against the base record r with
// the same name and hash, as InstrProfRecord::overlap does.
func (prog *stats) compare(fn *stats, r, other *instrprof.Record, cutoff uint64) {
	fn.base.add(r)
	if !sameShape(r, other) {
		prog.mismatch.addShare(fn.test, prog.test)
		return
	}
	for k := range r.Sites {
		for i := range r.Sites[k] {
			prog.compareSite(fn, k, r.Sites[k][i], other.Sites[k][i])
		}
	}
	var sc float64
	var maxCount uint64
	for i, c := range other.Counts {
		sc += score(r.Counts[i], c, prog.base.counts, prog.test.counts)
		maxCount = max(maxCount, c)
	}
	prog.overlap.counts += sc
	prog.overlap.entries++
	if maxCount >= cutoff {
		fn.functionScore(r, other)
	}
}

// functionScore sets fn's edge overlap, making its report due.
func (fn *stats) functionScore(r, other *instrprof.Record) {
	var sc float64
	for i, c := range other.Counts {
		sc += score(r.Counts[i], c, fn.base.counts, fn.test.counts)
	}
	fn.overlap.counts = sc
	fn.overlap.entries = uint64(len(other.Counts))
	fn.valid = true
}

// sameShape reports whether a and b have as many counters, and as many
// value sites of each kind.
func sameShape(a, b *instrprof.Record) bool {
	if len(a.Counts) != len(b.Counts) {
		return false
	}
	for k := range a.Sites {
		if len(a.Sites[k]) != len(b.Sites[k]) {
			return false
		}
	}
	return true
}

// compareSite adds the overlap of one value site of kind k: the values
// both records saw, scored against the program's and the function's
// totals of that kind.
func (prog *stats) compareSite(fn *stats, k int, base, test []instrprof.Value) {
	base, test = sortedByValue(base), sortedByValue(test)
	var sc, fsc float64
	for i, j := 0, 0; i < len(base) && j < len(test); {
		switch {
		case base[i].Value == test[j].Value:
			sc += score(base[i].Count, test[j].Count, prog.base.values[k], prog.test.values[k])
			fsc += score(base[i].Count, test[j].Count, fn.base.values[k], fn.test.values[k])
			i++
			j++
		case base[i].Value < test[j].Value:
			i++
		default:
			j++
		}
	}
	prog.overlap.values[k] += sc
	fn.overlap.values[k] += fsc
}
