package sampleprof

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// addSat returns a+b, or the largest count when that overflows.
func addSat(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

// mulAddSat returns a*w+b, saturating as LLVM's SaturatingMultiplyAdd.
func mulAddSat(a, w, b uint64) uint64 {
	var over bool
	return mulAddOver(a, w, b, &over)
}

// mulAddOver is mulAddSat that sets *over when it saturates.
func mulAddOver(a, w, b uint64, over *bool) uint64 {
	hi, lo := bits.Mul64(a, w)
	s, carry := bits.Add64(lo, b, 0)
	if hi != 0 || carry != 0 {
		*over = true
		return ^uint64(0)
	}
	return s
}

// addCallTargetSat counts n more calls from loc to callee, saturating.
func (f *FunctionSamples) addCallTargetSat(loc LineLocation, callee string, n uint64) {
	r := f.Record(loc)
	if r.CallTargets == nil {
		r.CallTargets = map[string]uint64{}
	}
	r.CallTargets[callee] = addSat(r.CallTargets[callee], n)
}

// Merge adds src, its counts multiplied by weight, into dst, as LLVM's
// FunctionSamples::merge does for llvm-profdata merge --sample: totals,
// head, body and call-target counts saturate instead of wrapping; inlinees
// merge by call site and name. The symbol lists are united. Profiles with
// MD5 names and with plain names cannot be mixed. The result has
// flow-sensitive discriminators if any input has (llvm-profdata keeps the
// flag of whichever input set or reset it last, an accident of its globals).
func Merge(dst, src *Profile, weight uint64) error {
	if len(dst.Functions) == 0 && dst.SymbolList == nil {
		dst.MD5 = src.MD5
	}
	if dst.MD5 != src.MD5 {
		return errors.New("cannot merge a profile with MD5 names and one with plain names")
	}
	if len(dst.Functions) == 0 {
		dst.ProbeBased = src.ProbeBased
		dst.CS = src.CS
	}
	if dst.CS != src.CS && len(src.Functions) > 0 {
		return errors.New("cannot merge a context-sensitive profile with a context-less one")
	}
	if dst.ProbeBased != src.ProbeBased && len(src.Functions) > 0 {
		return errors.New("cannot merge a pseudo-probe profile with a line-based one")
	}
	dst.FSDiscriminators = dst.FSDiscriminators || src.FSDiscriminators
	dst.PreInlined = dst.PreInlined || src.PreInlined
	// New functions enter dst in the order of src's reader's map, as into
	// llvm-profdata's (context profiles enter below, by context).
	for _, name := range src.insertionOrder() {
		if !src.CS && dst.Functions[name] == nil && src.Functions[name] != nil {
			dst.insertFunction(name).Attributes = src.Functions[name].Attributes
		}
	}
	var mismatch, overflow []string
	for _, name := range sortedKeys(src.Functions) {
		f, ok := dst.Functions[name]
		if !ok {
			if src.CS {
				f = dst.ContextProfile(src.Functions[name].Context)
			} else {
				f = dst.Function(name)
			}
			f.Attributes = src.Functions[name].Attributes
		}
		over := false
		mismatch = f.merge(src.Functions[name], weight, mismatch, &over)
		if over {
			overflow = append(overflow, name)
		}
	}
	dst.mergeSourceFiles(src.SourceFiles)
	if src.SymbolList != nil {
		dst.SymbolList = append(dst.SymbolList, src.SymbolList...)
		slices.Sort(dst.SymbolList)
		dst.SymbolList = slices.Compact(dst.SymbolList)
	}
	switch {
	case mismatch != nil:
		return &ChecksumMismatchError{Functions: mismatch}
	case overflow != nil:
		return &CounterOverflowError{Functions: overflow}
	}
	return nil
}

// CounterOverflowError lists the functions some of whose counts saturated
// at 2^64-1 (LLVM's "Counter overflow"); the merge went on.
type CounterOverflowError struct {
	Functions []string
}

func (e *CounterOverflowError) Error() string {
	return "Counter overflow: " + strings.Join(e.Functions, ", ")
}

// ChecksumMismatchError lists the functions (or inlinees, as
// "caller:loc @ callee") whose CFG checksum differs between the profiles:
// their counts are left out, the rest is merged, as llvm-profdata does.
type ChecksumMismatchError struct {
	Functions []string
}

func (e *ChecksumMismatchError) Error() string {
	return fmt.Sprintf("CFG checksum mismatch, samples dropped: %s", strings.Join(e.Functions, ", "))
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// merge adds src into f unless their checksums differ (attributes stay
// those of the first profile, as in LLVM); it returns
// mismatch with the names of skipped profiles appended.
func (f *FunctionSamples) merge(src *FunctionSamples, weight uint64, mismatch []string, over *bool) []string {
	if f.Checksum == 0 {
		f.Checksum = src.Checksum
	} else if f.Checksum != src.Checksum {
		return append(mismatch, f.Name)
	}
	f.TotalSamples = mulAddOver(src.TotalSamples, weight, f.TotalSamples, over)
	f.HeadSamples = mulAddOver(src.HeadSamples, weight, f.HeadSamples, over)
	for loc, r := range src.Body {
		dr := f.Record(loc)
		dr.Samples = mulAddOver(r.Samples, weight, dr.Samples, over)
		for callee, n := range r.CallTargets {
			if dr.CallTargets == nil {
				dr.CallTargets = map[string]uint64{}
			}
			dr.CallTargets[callee] = mulAddOver(n, weight, dr.CallTargets[callee], over)
		}
	}
	f.mergeVTables(src, weight, over)
	for _, loc := range SortedLocations(src.Callsites) {
		callees := src.Callsites[loc]
		for _, name := range sortedKeys(callees) {
			c, ok := f.Callsites[loc][name]
			if !ok {
				c = f.Inlinee(loc, name)
				c.Attributes = callees[name].Attributes
			}
			sub := c.merge(callees[name], weight, nil, over)
			for _, s := range sub {
				mismatch = append(mismatch, fmt.Sprintf("%s:%s @ %s", f.Name, locString(loc), s))
			}
		}
	}
	return mismatch
}

func locString(l LineLocation) string {
	if l.Discriminator == 0 {
		return fmt.Sprint(l.LineOffset)
	}
	return fmt.Sprintf("%d.%d", l.LineOffset, l.Discriminator)
}

// mergeSourceFiles adds the source files of functions dst does not place
// yet.
func (p *Profile) mergeSourceFiles(files map[string]string) {
	for name, file := range files {
		if p.SourceFiles == nil {
			p.SourceFiles = map[string]string{}
		}
		if _, ok := p.SourceFiles[name]; !ok {
			p.SourceFiles[name] = file
		}
	}
}
