package sampleprof

// Remap returns p with every function name (top-level, inlinee, call
// target) replaced by rename's, as llvm-profdata merge --remapping-file
// does: functions that end up with one name are merged. p's flags and
// symbol list carry over.
func Remap(p *Profile, rename func(string) string) *Profile {
	out := NewProfile()
	out.MD5, out.ProbeBased, out.FSDiscriminators, out.PreInlined = p.MD5, p.ProbeBased, p.FSDiscriminators, p.PreInlined
	out.SymbolList = p.SymbolList
	for _, f := range p.SortedFunctions() {
		r := remapSamples(f, rename)
		dst := out.Function(r.Name)
		var over bool
		dst.merge(r, 1, nil, &over)
	}
	return out
}

// remapSamples is a copy of f under the new names.
func remapSamples(f *FunctionSamples, rename func(string) string) *FunctionSamples {
	r := NewFunctionSamples(rename(f.Name))
	r.TotalSamples, r.HeadSamples, r.Checksum, r.Attributes = f.TotalSamples, f.HeadSamples, f.Checksum, f.Attributes
	for loc, rec := range f.Body {
		dr := r.Record(loc)
		dr.Samples = rec.Samples
		for callee, n := range rec.CallTargets {
			r.addCallTargetSat(loc, rename(callee), n)
		}
	}
	for _, loc := range SortedLocations(f.Callsites) {
		for _, c := range SortedInlinees(f.Callsites[loc]) {
			rc := remapSamples(c, rename)
			var over bool
			r.Inlinee(loc, rc.Name).merge(rc, 1, nil, &over)
		}
	}
	return r
}
