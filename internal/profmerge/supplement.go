package profmerge

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Supplement are the settings of llvm-profdata merge
// --supplement-instr-with-sample: functions an instrumentation profile
// finds cold but a sample profile finds hot or warm (the training run did
// not represent them) get pseudo counts or scaled-up counts.
type Supplement struct {
	SampleFile string // --supplement-instr-with-sample
	// ZeroCounterThreshold (--zero-counter-threshold, default 0.7): a
	// function with a larger share of zero counters is dropped (pseudo
	// counts) rather than scaled.
	ZeroCounterThreshold float64
	// InstrColdThreshold (--instr-prof-cold-threshold) replaces the
	// instrumentation profile's cold count threshold when not 0.
	InstrColdThreshold uint64
	// MinSize (--suppl-min-size-threshold, default 10): functions with
	// fewer counters are left alone (the early inliner takes them).
	MinSize uint64
}

// The summary cutoffs of hot and cold counts (ProfileSummaryBuilder's
// default cutoffs 11 and 15).
const (
	hotCutoff  = 990000
	coldCutoff = 999999
)

// uniqSuffix marks names made unique with -funique-internal-linkage-names.
const uniqSuffix = ".__uniq."

// duplicateName marks a static function name that several file-qualified
// names promote to.
const duplicateName = "----"

// supplement merges the one instrumentation input, adjusts it by the
// sample profile and writes it, with llvm-profdata's checks and words.
func supplement(stderr io.Writer, o *Options, opts merge.Options, inputs []merge.Input) error {
	switch {
	case o.Kind == "sample":
		return errors.New("-supplement-instr-with-sample can only work with -instr. ")
	case o.Output == "-":
		return errors.New("cannot write indexed profdata format to stdout")
	case len(inputs) != 1:
		return errors.New("expect one input to be an instr profile")
	case inputs[0].Weight > 1:
		return errors.New("expect instr profile doesn't have weight")
	}
	samples, err := sampleprof.ReadFile(o.Supplement.SampleFile)
	if err != nil {
		return err
	}
	res, err := merge.Run(inputs, opts)
	if err != nil {
		return err
	}
	for _, w := range o.Supplement.adjust(res.Profile, samples) {
		fmt.Fprintf(stderr, "profgen merge: warning: %s\n", w)
	}
	if o.Sparse {
		res.Profile.DropZero()
	}
	return writeInstr(o, res, o.outputVersion(stderr, res.Profile))
}

// instrEntry is a function of the instrumentation profile with one record.
type instrEntry struct {
	f         *instrprof.Func
	maxCount  uint64
	zeroShare float32
}

// sampleExtent is a function's flattened sample counts: the sum of its
// entry estimates and the largest body count.
type sampleExtent struct{ entry, maxBody uint64 }

// adjust raises the functions of p that samples finds hot or warm and p
// cold, as llvm-profdata's adjustInstrProfile does; it returns warnings.
func (s *Supplement) adjust(p *instrprof.Profile, samples *sampleprof.Profile) []string {
	entries, statics := s.instrEntries(p, hasUniqSuffix(samples))
	flat := flattenSamples(samples, entries, statics)
	sampleSum := sampleprof.ComputeSummary(samples)
	hotSample, coldSample := sampleSum.HotThreshold(), sampleSum.ColdThreshold()
	hotInstr, coldInstr := instrThresholds(p)
	if s.InstrColdThreshold != 0 {
		coldInstr = s.InstrColdThreshold
	}
	var warnings []string
	for _, name := range sortedKeys(flat) {
		e := flat[name]
		count := max(e.entry, e.maxBody)
		if count < coldSample {
			continue
		}
		entry, ok := entries[name]
		if !ok {
			if promoted, found := statics[name]; found {
				entry, ok = entries[promoted]
				if promoted == duplicateName {
					warnings = append(warnings, "Static function "+name+" has multiple promoted names, cannot adjust profile.")
				}
			}
		}
		if !ok || entry.maxCount > coldInstr || uint64(len(entry.f.Counts)) < s.MinSize {
			continue
		}
		if s.raise(entry, count >= hotSample, hotInstr, coldInstr) {
			warnings = append(warnings, "counter overflow")
		}
	}
	return warnings
}

// raise gives a function pseudo counts, hot or warm, when most of its
// counters are zero, else scales its counts up to three times the hot or
// cold threshold; it reports a counter overflow.
func (s *Supplement) raise(e *instrEntry, hot bool, hotInstr, coldInstr uint64) bool {
	if e.maxCount == 0 || e.zeroShare > float32(s.ZeroCounterThreshold) {
		e.f.Counts[0] = instrprof.PseudoWarm
		if hot {
			e.f.Counts[0] = instrprof.PseudoHot
		}
		return false
	}
	threshold := coldInstr
	if hot {
		threshold = hotInstr
	}
	numerator := threshold * 3 // llvm's warm threshold adjustment comes after this
	if numerator <= e.maxCount {
		return false
	}
	return e.f.Scale(numerator, e.maxCount)
}

// instrEntries indexes the functions of p that have one record by name,
// and maps the names of static functions without their file prefix
// ("file.c;f") to them (adjusted for -funique-internal-linkage-names
// when one profile has its suffixes and the other not).
func (s *Supplement) instrEntries(p *instrprof.Profile, sampleUniq bool) (map[string]*instrEntry, map[string]string) {
	byName := map[string][]*instrprof.Func{}
	for _, f := range p.Funcs() {
		byName[f.Name] = append(byName[f.Name], f)
	}
	entries, statics := map[string]*instrEntry{}, map[string]string{}
	for _, name := range sortedKeys(byName) {
		if fs := byName[name]; len(fs) == 1 && len(fs[0].Counts) > 0 {
			entries[name] = newInstrEntry(fs[0])
			addStatic(statics, name, sampleUniq)
		}
	}
	return entries, statics
}

func newInstrEntry(f *instrprof.Func) *instrEntry {
	e := &instrEntry{f: f}
	zeros := 0
	for _, c := range f.Counts {
		e.maxCount = max(e.maxCount, c)
		if c == 0 {
			zeros++
		}
	}
	e.zeroShare = float32(zeros) / float32(len(f.Counts))
	return e
}

// staticPrefixes are the file name endings llvm-profdata looks for, in
// its order, before the ';' of a static function's name.
var staticPrefixes = []string{".cpp", "cc", ".c", ".hpp", ".h"}

// addStatic maps the static function name in name ("file.c;f") to name.
func addStatic(statics map[string]string, name string, sampleUniq bool) {
	start := -1
	for _, ext := range staticPrefixes {
		if i := strings.Index(strings.ToLower(name), ext+";"); i >= 0 {
			start = i + len(ext) + 1
			break
		}
	}
	if start < 0 || start == len(name) {
		return
	}
	short, file := name[start:], name[:start-1]
	suffix := strings.Index(short, uniqSuffix)
	if instrUniq := suffix >= 0; instrUniq != sampleUniq {
		if instrUniq {
			short = short[:suffix]
		} else {
			statics[short+uniqPostfix(file)] = name
			return
		}
	}
	if _, dup := statics[short]; dup {
		statics[short] = duplicateName
		return
	}
	statics[short] = name
}

// uniqPostfix is the suffix -funique-internal-linkage-names gives the
// static functions of a file: ".__uniq." and the MD5 of the file name as
// a decimal number.
func uniqPostfix(file string) string {
	sum := md5.Sum([]byte(file))
	return uniqSuffix + new(big.Int).SetBytes(sum[:]).String()
}

// hasUniqSuffix reports whether a sample profile's functions carry
// -funique-internal-linkage-names suffixes.
func hasUniqSuffix(p *sampleprof.Profile) bool {
	for key := range p.Functions {
		if strings.Contains(key, uniqSuffix) {
			return true
		}
	}
	return false
}

// flattenSamples folds the sample profile onto the instrumentation
// profile's functions: an inlined function that has its own entry (or is
// a static one of them) counts for that entry, with its entry estimate;
// another one's body counts for the function it is inlined in.
func flattenSamples(p *sampleprof.Profile, entries map[string]*instrEntry, statics map[string]string) map[string]sampleExtent {
	flat := map[string]sampleExtent{}
	var walk func(f *sampleprof.FunctionSamples, root string)
	walk = func(f *sampleprof.FunctionSamples, root string) {
		entry := f.HeadSamplesEstimate(p.CS)
		if _, ok := entries[f.Name]; ok {
			root = f.Name
		} else if promoted, ok := statics[f.Name]; ok {
			if promoted != duplicateName {
				root = promoted
			}
		} else {
			entry = 0 // an inlinee's entry is inside its caller
		}
		e := flat[root]
		flat[root] = sampleExtent{entry: e.entry + entry, maxBody: max(e.maxBody, maxBodyCount(f))}
		for _, loc := range sampleprof.SortedLocations(f.Callsites) {
			callees := f.Callsites[loc]
			for _, name := range sortedKeys(callees) {
				walk(callees[name], root)
			}
		}
	}
	for _, key := range sortedKeys(p.Functions) {
		f := p.Functions[key]
		walk(f, f.Name)
	}
	return flat
}

// maxBodyCount is the largest body count of f, its inlinees left out.
func maxBodyCount(f *sampleprof.FunctionSamples) uint64 {
	var m uint64
	for _, r := range f.Body {
		m = max(m, r.Samples)
	}
	return m
}

// instrThresholds are the hot and cold count thresholds of p's summary.
func instrThresholds(p *instrprof.Profile) (hot, cold uint64) {
	sum := indexed.NewSummary()
	for _, f := range p.Funcs() {
		sum.Add(&f.Record)
	}
	for _, e := range sum.DetailedAt([]uint64{hotCutoff, coldCutoff}) {
		if e.Cutoff == hotCutoff {
			hot = e.MinCount
		} else {
			cold = e.MinCount
		}
	}
	return hot, cold
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
