// Package memprof reads and writes LLVM's MemProf heap profiles.
//
// In: the raw profile the memprof runtime of clang -fmemory-profile dumps
// (.memprofraw, versions 3 to 5: one or more dumps of segments, memory
// info blocks and call stacks of program counters), and the MemProf
// section of an indexed profile (versions 2 to 4).
// Out: the raw profile as read (Raw), the symbolized profile llvm-profdata
// merges (Data: per-function records of allocation sites and call sites
// over tables of frames and call stacks), and Data written as an indexed
// MemProf section (versions 2 to 4, hot/cold or full schema).
//
// Symbolizing a raw profile's program counters against the profiled
// binary is a later stage (internal/memprofsym): this package only holds
// the formats.
package memprof
