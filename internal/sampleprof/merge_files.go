package sampleprof

import (
	"errors"
	"fmt"
)

// WeightedFile is a sample profile to merge and the weight its counts are
// multiplied by (llvm-profdata's --weighted-input=W,FILE).
type WeightedFile struct {
	Path   string
	Weight uint64
}

// MergeFiles reads and merges the files in order, as llvm-profdata merge
// --sample does. Checksum mismatches and counter overflows are passed to
// warn (which may be nil)
// and do not stop the merge; any other error does, naming the file.
// rename, when not nil, renames every function of the inputs first
// (--remapping-file).
func MergeFiles(files []WeightedFile, rename func(string) string, warn func(path string, err error)) (*Profile, error) {
	merged := NewProfile()
	for _, in := range files {
		if in.Weight == 0 {
			return nil, fmt.Errorf("%s: weight must be a positive integer", in.Path)
		}
		p, err := ReadFile(in.Path)
		if err != nil {
			return nil, err
		}
		if rename != nil {
			p = Remap(p, rename)
		}
		err = Merge(merged, p, in.Weight)
		var mismatch *ChecksumMismatchError
		var overflow *CounterOverflowError
		switch {
		case errors.As(err, &mismatch), errors.As(err, &overflow):
			if warn != nil {
				warn(in.Path, err)
			}
		case err != nil:
			return nil, fmt.Errorf("%s: %w", in.Path, err)
		}
	}
	return merged, nil
}
