package driver

import (
	"math"

	"github.com/profgen/profgen/internal/csprofile"
)

// CSOptions tune the context-sensitive (CSSPGO) profiles made from hybrid
// samples (a call stack and a branch stack each, perf record -g -b). Names
// and defaults are llvm-profgen 19's (DefaultCSOptions).
type CSOptions struct {
	// IgnoreStackSamples makes a context-insensitive profile of hybrid
	// samples from their branch stacks (--ignore-stack-samples).
	IgnoreStackSamples bool
	// CompressRecursion is the longest repeated frame sequence removed
	// from contexts: -1 any, 0 none (--compress-recursion).
	CompressRecursion int
	// MaxContextDepth keeps that many caller frames per context, -1 all
	// (--csprof-max-context-depth).
	MaxContextDepth int
	// MaxUnsymbolizedContextDepth keeps that many caller frames of the
	// address contexts of pseudo-probe binaries before they are
	// symbolized, -1 all (--csprof-max-unsymbolized-context-depth, LLVM
	// 20): the inlined frames of each address stay, unlike with
	// MaxContextDepth.
	MaxUnsymbolizedContextDepth int
	// InferMissingFrames infers the frames of tail calls
	// (--infer-missing-frames). llvm-profgen applies it to pseudo-probe
	// contexts only: line-number profiles do not change.
	InferMissingFrames bool
	// MaxSearchDepth bounds the tail-call chains the inference searches
	// (--max-search-depth; LLVM's default 2^32-2 is no bound in practice).
	MaxSearchDepth uint32
	// SafeRecursiveMerge keeps the samples llvm-profgen's pre-inliner
	// loses on recursive contexts (csprofile.Options.SafeRecursiveMerge);
	// nil: on only without recursion compression, where llvm-profgen-19
	// crashes and there are no bytes to match.
	SafeRecursiveMerge *bool
	// Profile tunes the profile made of the contexts: pre-inliner,
	// cold contexts, nesting.
	Profile csprofile.Options
}

// DefaultCSOptions returns llvm-profgen 19's defaults.
func DefaultCSOptions() CSOptions {
	return CSOptions{CompressRecursion: -1, MaxContextDepth: -1, MaxUnsymbolizedContextDepth: -1, InferMissingFrames: true, MaxSearchDepth: math.MaxUint32 - 1, Profile: csprofile.DefaultOptions()}
}

// addressContextDepth is the depth address contexts are cut to, as
// llvm-profgen 22's AddressStack: the smaller of the two depth limits
// given, -1 for none.
func (cs *CSOptions) addressContextDepth() int {
	switch {
	case cs.MaxUnsymbolizedContextDepth == -1:
		return cs.MaxContextDepth
	case cs.MaxContextDepth == -1:
		return cs.MaxUnsymbolizedContextDepth
	}
	return min(cs.MaxContextDepth, cs.MaxUnsymbolizedContextDepth)
}

// profileOptions are the options of CS profile generation for a binary.
func (cs *CSOptions) profileOptions(fs bool) csprofile.Options {
	o := cs.Profile
	o.FSDiscriminators = fs
	o.SafeRecursiveMerge = cs.CompressRecursion == 0
	if cs.SafeRecursiveMerge != nil {
		o.SafeRecursiveMerge = *cs.SafeRecursiveMerge
	}
	return o
}

func validateCS(cs *CSOptions) error {
	switch {
	case cs.CompressRecursion < -1:
		return usagef("--compress-recursion must be -1 (no limit) or more, got %d", cs.CompressRecursion)
	case cs.MaxContextDepth < -1:
		return usagef("--csprof-max-context-depth must be -1 (no limit) or more, got %d", cs.MaxContextDepth)
	case cs.MaxUnsymbolizedContextDepth < -1:
		return usagef("--csprof-max-unsymbolized-context-depth must be -1 (no limit) or more, got %d", cs.MaxUnsymbolizedContextDepth)
	}
	return nil
}
