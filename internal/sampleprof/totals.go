package sampleprof

// UpdateTotalSamples sets f's total, and that of every inlinee below it, to
// the sum of its body samples and its inlinees' totals, as llvm's
// FunctionSamples::updateTotalSamples (llvm-profgen --update-total-samples).
// Sums saturate at the largest count.
func UpdateTotalSamples(f *FunctionSamples) {
	var total uint64
	for _, r := range f.Body {
		total = addSat(total, r.Samples)
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			UpdateTotalSamples(c)
			total = addSat(total, c.TotalSamples)
		}
	}
	f.TotalSamples = total
}

// AddAttributes sets the context attributes attrs on f and on every
// profile inlined in it.
func AddAttributes(f *FunctionSamples, attrs uint32) {
	f.Attributes |= attrs
	for _, callees := range f.Callsites {
		for _, c := range callees {
			AddAttributes(c, attrs)
		}
	}
}
