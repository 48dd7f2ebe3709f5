package instrprof

// llvm-profdata merges a value (call target, memop size) that a record
// brings into a function for the first time unscaled, whatever its
// input's weight; only the values of the record that creates the function
// and later counts of known values are scaled. Profiles that track first
// values (Profile.TrackFirstValues, set when some input is weighted) keep,
// per value, the earliest record holding it, and Resolve takes the
// weight off those first counts that did not come with the creating
// record: the result of llvm-profdata -j=1 for any merge order.

// valueKey names one value of one site.
type valueKey struct {
	kind, site int
	value      uint64
}

// firstValue is the earliest record holding a value: where, its count and
// its weight.
type firstValue struct {
	at            Origin
	count, weight uint64
}

// noteValues records rec's values, read at with weight, where they come
// earlier than what f knows.
func (f *Func) noteValues(rec *Record, weight uint64, at Origin) {
	if f.first == nil {
		f.first = map[valueKey]firstValue{}
	}
	for k := range rec.Sites {
		for s, vs := range rec.Sites[k] {
			for _, v := range vs {
				key := valueKey{k, s, v.Value}
				if old, ok := f.first[key]; !ok || at.Before(old.at) {
					f.first[key] = firstValue{at, v.Count, weight}
				}
			}
		}
	}
}

// mergeFirst merges h's first values into f's.
func (f *Func) mergeFirst(h *Func) {
	if h.first == nil {
		return
	}
	if f.first == nil {
		f.first = map[valueKey]firstValue{}
	}
	for key, v := range h.first {
		if old, ok := f.first[key]; !ok || v.at.Before(old.at) {
			f.first[key] = v
		}
	}
}

// unscaleFirstValues takes the weight off every value whose first record
// is not the one that created f, and sorts the sites again.
func (f *Func) unscaleFirstValues() {
	changed := false
	for key, v := range f.first {
		if v.weight <= 1 || v.at == f.Origin {
			continue
		}
		vs := f.Sites[key.kind][key.site]
		for i := range vs {
			if vs[i].Value == key.value && vs[i].Count != ^uint64(0) {
				vs[i].Count -= v.count * (v.weight - 1)
				changed = true
			}
		}
	}
	f.first = nil
	if changed {
		sortSitesByCount(&f.Record)
	}
}
