package sampleprof

import "sort"

// Density is llvm-profgen 19's profile density: each top-level function's
// density is its body samples (inlinees' included) per body record; taking
// functions from the densest down until they hold cutoffHot millionths of
// all body samples, the density of the last one taken. 0 for an empty
// profile or a cutoff of 0.
func Density(p *Profile, cutoffHot int) float64 {
	type funcDensity struct {
		density float64
		samples uint64
	}
	var list []funcDensity
	var total uint64
	for _, f := range p.Functions {
		samples, size := bodySamplesAndSize(f)
		if size == 0 {
			continue
		}
		total += samples
		list = append(list, funcDensity{float64(samples) / float64(size), samples})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].density != list[j].density {
			return list[i].density > list[j].density
		}
		return list[i].samples < list[j].samples
	})
	// llvm compares in single precision: total * (float)cutoff / 1000000.
	limit := float32(total) * float32(cutoffHot) / 1000000
	var acc uint64
	density := 0.0
	for i := 0; i < len(list) && float32(acc) < limit; i++ {
		acc += list[i].samples
		density = list[i].density
	}
	return density
}

// bodySamplesAndSize sums the body samples of f and its inlinees and counts
// their body records.
func bodySamplesAndSize(f *FunctionSamples) (samples, size uint64) {
	size = uint64(len(f.Body))
	for _, r := range f.Body {
		samples += r.Samples
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			s, n := bodySamplesAndSize(c)
			samples += s
			size += n
		}
	}
	return samples, size
}
