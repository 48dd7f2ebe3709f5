package main

import (
	"strconv"

	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
)

// addCSFlags registers llvm-profgen's flags for context-sensitive profiles
// of hybrid samples (perf record -g -b), with its names and defaults.
func addCSFlags(fs *pflag.FlagSet, o *driver.CSOptions) {
	*o = driver.DefaultCSOptions()
	p := &o.Profile
	in := &p.Inline
	fs.BoolVar(&o.IgnoreStackSamples, "ignore-stack-samples", false, "hybrid samples: use the branch stacks only, for a context-insensitive profile")
	fs.IntVar(&o.CompressRecursion, "compress-recursion", -1, "remove repeated frame sequences up to this length from contexts (-1: any, 0: none)")
	fs.IntVar(&o.MaxContextDepth, "csprof-max-context-depth", -1, "keep this many caller frames per context (-1: all)")
	fs.IntVar(&o.MaxUnsymbolizedContextDepth, "csprof-max-unsymbolized-context-depth", -1, "pseudo-probe binaries: keep this many caller frames of the address contexts, before their inlined frames are added (-1: all)")
	fs.BoolVar(&o.InferMissingFrames, "infer-missing-frames", true, "infer frames of tail calls (pseudo-probe profiles; no effect on line-number ones, as llvm-profgen)")
	fs.Uint32Var(&o.MaxSearchDepth, "max-search-depth", o.MaxSearchDepth, "the longest chain of tail calls the missing-frame inference searches")
	fs.BoolVar(&p.PreInliner, "csspgo-preinliner", true, "run the CS pre-inliner: keep the contexts worth inlining, merge the others into base profiles")
	fs.BoolVar(&p.ContextCost, "use-context-cost-for-preinliner", true, "pre-inliner: size callees by their machine code in each inline context")
	fs.BoolVar(&p.Nested, "gen-cs-nested-profile", true, "write contexts as nested inlinees (otherwise as flat [a:1 @ b] contexts)")
	fs.BoolVar(&p.MergedBaseProfiles, "generate-merged-base-profiles", false, "nested profile: also merge every context inlined into a caller into its function's top-level profile")
	fs.Var(optionalBool{&p.MergeColdContext}, "csprof-merge-cold-context", "merge cold contexts into shorter ones (default: on without the pre-inliner)")
	fs.Lookup("csprof-merge-cold-context").NoOptDefVal = "true"
	fs.IntVar(&p.MaxColdContextDepth, "csprof-max-cold-context-depth", 1, "frames kept when merging cold contexts")
	fs.BoolVar(&p.TrimColdProfile, "trim-cold-profile", false, "drop cold profiles (with contexts: below the hot threshold; without: functions below the cold threshold)")
	fs.BoolVar(&p.MarkAllPreinlined, "mark-all-context-preinlined", false, "mark every profile as to be inlined")
	fs.IntVar(&in.HotCallSiteThreshold, "sample-profile-hot-inline-threshold", in.HotCallSiteThreshold, "pre-inliner: size threshold of the hottest call sites")
	fs.IntVar(&in.ColdCallSiteThreshold, "sample-profile-cold-inline-threshold", in.ColdCallSiteThreshold, "pre-inliner: size threshold of cold call sites")
	fs.IntVar(&in.GrowthLimit, "sample-profile-inline-growth-limit", in.GrowthLimit, "pre-inliner: growth of a function's size allowed by inlining, as a factor")
	fs.IntVar(&in.LimitMin, "sample-profile-inline-limit-min", in.LimitMin, "pre-inliner: lower bound of a function's size limit")
	fs.IntVar(&in.LimitMax, "sample-profile-inline-limit-max", in.LimitMax, "pre-inliner: upper bound of a function's size limit")
	fs.IntVar(&in.PrevInliningFactor, "csspgo-preinliner-multiplier-for-previous-inlining", in.PrevInliningFactor, "pre-inliner: threshold factor for calls the binary inlined")
	fs.BoolVar(&in.Replay, "csspgo-replay-preinline", false, "pre-inliner: inline what the profiled binary inlined")
	fs.Var(optionalBool{&o.SafeRecursiveMerge}, "safe-recursive-merge", "pre-inliner: keep the samples of recursive contexts that llvm-profgen merges into themselves (default: on with --compress-recursion=0, where llvm-profgen crashes)")
	fs.Lookup("safe-recursive-merge").NoOptDefVal = "true"
	fs.BoolVar(&in.SortSCC, "sort-profiled-scc-member", true, "pre-inliner: order the functions of a recursion by call weights")
	for _, name := range []string{"max-search-depth", "use-context-cost-for-preinliner", "mark-all-context-preinlined", "sample-profile-hot-inline-threshold",
		"sample-profile-cold-inline-threshold", "sample-profile-inline-growth-limit", "sample-profile-inline-limit-min",
		"sample-profile-inline-limit-max", "csspgo-preinliner-multiplier-for-previous-inlining", "csspgo-replay-preinline", "sort-profiled-scc-member"} {
		_ = fs.MarkHidden(name)
	}
}

// optionalBool is a bool flag that is nil until given.
type optionalBool struct{ p **bool }

func (o optionalBool) String() string {
	if o.p == nil || *o.p == nil {
		return ""
	}
	return strconv.FormatBool(**o.p)
}

func (o optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*o.p = &v
	return nil
}

func (o optionalBool) Type() string { return "bool" }
