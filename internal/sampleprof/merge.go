package sampleprof

import "math/bits"

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
