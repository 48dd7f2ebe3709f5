package sampleprof

import (
	"errors"
	"math/bits"
	"slices"
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
	hi, lo := bits.Mul64(a, w)
	if hi != 0 {
		return ^uint64(0)
	}
	return addSat(lo, b)
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
	dst.FSDiscriminators = dst.FSDiscriminators || src.FSDiscriminators
	for name, f := range src.Functions {
		dst.Function(name).merge(f, weight)
	}
	if src.SymbolList != nil {
		dst.SymbolList = append(dst.SymbolList, src.SymbolList...)
		slices.Sort(dst.SymbolList)
		dst.SymbolList = slices.Compact(dst.SymbolList)
	}
	return nil
}

func (f *FunctionSamples) merge(src *FunctionSamples, weight uint64) {
	f.TotalSamples = mulAddSat(src.TotalSamples, weight, f.TotalSamples)
	f.HeadSamples = mulAddSat(src.HeadSamples, weight, f.HeadSamples)
	for loc, r := range src.Body {
		dr := f.Record(loc)
		dr.Samples = mulAddSat(r.Samples, weight, dr.Samples)
		for callee, n := range r.CallTargets {
			if dr.CallTargets == nil {
				dr.CallTargets = map[string]uint64{}
			}
			dr.CallTargets[callee] = mulAddSat(n, weight, dr.CallTargets[callee])
		}
	}
	for loc, callees := range src.Callsites {
		for name, c := range callees {
			f.Inlinee(loc, name).merge(c, weight)
		}
	}
}
