package sampleprof

import (
	"errors"
	"fmt"
)

// gccForm returns p as GCC reads it: every name (functions, inlinees,
// call targets) cut at its first '.', the instances that then share a
// name merged (GCC would keep only the last of them), names that cut to ""
// dropped (GCC cannot match them). With fold, the locations of one line
// become one, at discriminator 0: GCC 12 drops discriminators when it
// reads (the last of a line's entries wins, and a call site with one never
// matches); the line's count is the largest of its discriminators' (the
// count of its hottest block, as create_gcov takes the largest count of an
// offset), its call targets and inlinees add up. A top-level function
// with samples but no head count gets LLVM's estimate of it (at least 1):
// gcc-12 zeroes every block of a function whose head count is 0, whatever
// its body says (seen with -fdump-ipa-afdo; docs/gcc.md). A context-sensitive
// profile is first merged by function; MD5 names and pseudo-probe
// locations do not map to GCC's format. With o.ZerosAsOne, zero body
// counts of hot instances become 1 (gccZerosAsOne).
func gccForm(p *Profile, o GCCOptions) (*Profile, error) {
	switch {
	case p.MD5:
		return nil, errors.New("GCC AutoFDO needs function names: the profile has MD5s")
	case p.ProbeBased:
		return nil, errors.New("GCC AutoFDO needs source lines: the profile has pseudo-probe ids")
	case p.CS:
		p = p.ContextLess()
	}
	out := NewProfile()
	for _, key := range sortedKeys(p.Functions) {
		f := p.Functions[key]
		if name := GCCName(f.Name); name != "" {
			mergeOrAdopt(out.Functions, gccInstance(f, name, o.FoldDiscriminators))
		}
	}
	for _, f := range out.Functions {
		if f.HeadSamples == 0 {
			f.HeadSamples = f.HeadSamplesEstimate(false)
		}
		if o.ZerosAsOne {
			gccZerosAsOne(f)
		}
	}
	for _, name := range sortedKeys(p.SourceFiles) {
		out.mergeSourceFiles(map[string]string{GCCName(name): p.SourceFiles[name]})
	}
	return out, checkGCCLocations(out)
}

// gccInstance is a copy of f named name, its callees and call targets cut
// by GCCName, its locations folded with fold.
func gccInstance(f *FunctionSamples, name string, fold bool) *FunctionSamples {
	g := NewFunctionSamples(name)
	g.TotalSamples, g.HeadSamples = f.TotalSamples, f.HeadSamples
	for loc, r := range f.Body {
		at := gccLocation(loc, fold)
		rec := g.Record(at)
		if fold {
			rec.Samples = max(rec.Samples, r.Samples)
		} else {
			rec.Samples = addSat(rec.Samples, r.Samples)
		}
		for target, n := range r.CallTargets {
			if t := GCCName(target); t != "" {
				g.addCallTargetSat(at, t, n)
			}
		}
	}
	for loc, callees := range f.Callsites {
		for _, c := range callees {
			if cname := GCCName(c.Name); cname != "" {
				at := gccLocation(loc, fold)
				if g.Callsites[at] == nil {
					g.Callsites[at] = map[string]*FunctionSamples{}
				}
				mergeOrAdopt(g.Callsites[at], gccInstance(c, cname, fold))
			}
		}
	}
	return g
}

// mergeOrAdopt enters f in m by its name, merged into the profile of
// that name already there.
func mergeOrAdopt(m map[string]*FunctionSamples, f *FunctionSamples) {
	if g := m[f.Name]; g != nil {
		g.MergeFrom(f)
		return
	}
	m[f.Name] = f
}

func gccLocation(loc LineLocation, fold bool) LineLocation {
	if fold {
		loc.Discriminator = 0
	}
	return loc
}

// checkGCCLocations refuses a location that does not fit GCC's 16-bit
// line offset and discriminator.
func checkGCCLocations(p *Profile) error {
	for _, key := range sortedKeys(p.Functions) {
		if err := checkGCCInstance(p.Functions[key]); err != nil {
			return err
		}
	}
	return nil
}

func checkGCCInstance(f *FunctionSamples) error {
	for _, loc := range SortedLocations(f.Body) {
		if err := checkGCCLocation(f.Name, loc); err != nil {
			return err
		}
	}
	for _, loc := range SortedLocations(f.Callsites) {
		if err := checkGCCLocation(f.Name, loc); err != nil {
			return err
		}
		for _, c := range SortedInlinees(f.Callsites[loc]) {
			if err := checkGCCInstance(c); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkGCCLocation(name string, loc LineLocation) error {
	if loc.LineOffset > gcovMaxOffset || loc.Discriminator > gcovMaxOffset {
		return fmt.Errorf("%s: location %d.%d does not fit GCC AutoFDO's 16-bit line offset and discriminator", name, loc.LineOffset, loc.Discriminator)
	}
	return nil
}

// gccZerosAsOne writes 1 for the zero body counts of f and its inlinees
// where the instance's counts add up to 2 or more, the counts GCC 12 finds
// hot (predict.cc maybe_hot_count_p with AutoFDO's runs = 1): 0 and 1
// are both cold to it, so no block changes side, and no instance it finds
// cold becomes hot. Why: gcc-12 reads a zero count as a zero of AutoFDO
// quality, not its precise zero, and when it vectorizes a hot loop with
// an epilogue it scales each epilogue block back by its own count
// (vect_do_peeling, tree-vect-loop-manip.cc): 0 × 0 / 0, an integer
// division by zero, "internal compiler error: Floating point exception"
// (docs/gcc.md). A never-run branch in a hot loop is enough.
func gccZerosAsOne(f *FunctionSamples) {
	if gccTotal(f) >= 2 {
		for _, r := range f.Body {
			if r.Samples == 0 {
				r.Samples = 1
			}
		}
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			gccZerosAsOne(c)
		}
	}
}

// gccTotal is the total GCC gives an instance when it reads it: the sum
// of its body counts and of its inlinees' (the format stores none).
func gccTotal(f *FunctionSamples) uint64 {
	var n uint64
	for _, r := range f.Body {
		n = addSat(n, r.Samples)
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			n = addSat(n, gccTotal(c))
		}
	}
	return n
}
