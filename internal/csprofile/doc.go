// Package csprofile makes context-sensitive (CSSPGO) sample profiles of
// unwound hybrid samples, as llvm-profgen 19's CSProfileGenerator does.
//
// In: the counters (ranges and branches) of each calling context the
// unwinder found (package unwind), and the profiled binary: its
// instructions, its debug info (Symbols) and, for binaries built with
// -fpseudo-probe-for-profiling, its probe sections. Out: a
// sampleprof.Profile, nested (the inlinees the pre-inliner kept) or flat
// ([main:3 @ foo] contexts).
//
// Line-number profiles (Generate) take contexts of symbolized frames
// (FrameContexts names the unwinder's contexts so); probe profiles
// (GenerateProbe) take contexts of call-site addresses and get their
// frames from the probes. Both then go through the same steps: a context
// trie of profiles, the summary of the context-less profile, the
// pre-inliner (sizes of each inline context from the machine code),
// cold-context merging and trimming, nesting.
package csprofile
