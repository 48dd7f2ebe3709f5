package profmerge

import (
	"cmp"
	"fmt"

	"github.com/profgen/profgen/internal/profformat"
)

// Classify returns the family all paths share. Mixing sample and
// instrumentation profiles is an error naming one of each.
func Classify(paths []string) (profformat.Kind, error) {
	first := map[profformat.Kind]string{}
	for _, p := range paths {
		f, err := profformat.SniffFile(p)
		if err != nil {
			return profformat.KindUnknown, err
		}
		if _, ok := first[f.Kind()]; !ok {
			first[f.Kind()] = p
		}
	}
	sample, instr, other := first[profformat.KindSample], first[profformat.KindInstr], first[profformat.KindUnknown]
	if other == "" {
		other = first[profformat.KindPprof]
	}
	if addr := first[profformat.KindAddress]; addr != "" {
		return addressKind(addr, cmp.Or(sample, instr, other))
	}
	switch {
	case sample != "" && instr != "":
		return profformat.KindUnknown, fmt.Errorf("cannot merge sample profiles (%s) with instrumentation profiles (%s)", sample, instr)
	case sample != "" && other != "":
		return profformat.KindUnknown, fmt.Errorf("%s: not an LLVM sample profile (merging sample profiles such as %s)", other, sample)
	case sample != "":
		return profformat.KindSample, nil
	case instr != "":
		return profformat.KindInstr, nil
	}
	return profformat.KindUnknown, nil
}

// addressKind is KindAddress when every input is an address profile (addr
// is one of them); another is an error naming it.
func addressKind(addr, another string) (profformat.Kind, error) {
	if another != "" {
		return profformat.KindUnknown, fmt.Errorf("cannot merge address profiles (%s) with symbolized or other profiles (%s)", addr, another)
	}
	return profformat.KindAddress, nil
}
