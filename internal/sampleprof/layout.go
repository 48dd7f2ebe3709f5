package sampleprof

// Flatten returns p with every inlined profile made a top-level one, as
// llvm-profdata merge --convert-sample-profile-layout=flat does
// (ProfileConverter::flattenProfile): at each call site the caller keeps
// the callee's estimated entry count as body samples and as a call target;
// its total loses the callee's total and gains that estimate; the callee's
// samples merge into its own top-level profile; every head count becomes
// the estimate of the flattened body. A flat context-sensitive profile
// becomes its contexts merged by function, head samples added, as LLVM
// flattens one.
func Flatten(p *Profile) *Profile {
	if p.CS {
		return p.ContextLess()
	}
	out := NewProfile()
	out.MD5, out.FSDiscriminators, out.ProbeBased, out.PreInlined = p.MD5, p.FSDiscriminators, p.ProbeBased, p.PreInlined
	out.SymbolList = p.SymbolList
	for _, f := range p.SortedFunctions() {
		flattenInto(out, f)
	}
	return out
}

func flattenInto(out *Profile, f *FunctionSamples) {
	g := out.Functions[f.Name]
	if g == nil {
		g = &FunctionSamples{Name: f.Name, HeadSamples: f.HeadSamples, Checksum: f.Checksum, Attributes: f.Attributes,
			Body: map[LineLocation]*SampleRecord{}, Callsites: map[LineLocation]map[string]*FunctionSamples{}}
		out.Functions[f.Name] = g
	}
	for loc, r := range f.Body {
		g.mergeRecord(loc, r)
	}
	var over bool // saturated counts stay saturated, as in the rest of g
	g.mergeVTables(f, 1, &over)
	total := f.TotalSamples
	for _, loc := range SortedLocations(f.Callsites) {
		for _, c := range SortedInlinees(f.Callsites[loc]) {
			est := c.HeadSamplesEstimate(false)
			r := g.Record(loc)
			r.Samples = addSat(r.Samples, est)
			g.addCallTargetSat(loc, c.Name, est)
			total = addSat(total-min(total, c.TotalSamples), est)
			flattenInto(out, c)
		}
	}
	g.TotalSamples = addSat(g.TotalSamples, total)
	g.HeadSamples = g.HeadSamplesEstimate(false)
}

// mergeRecord adds r's samples and call targets at loc, saturating.
func (f *FunctionSamples) mergeRecord(loc LineLocation, r *SampleRecord) {
	dst := f.Record(loc)
	dst.Samples = addSat(dst.Samples, r.Samples)
	for callee, n := range r.CallTargets {
		f.addCallTargetSat(loc, callee, n)
	}
}
