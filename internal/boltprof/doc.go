// Package boltprof writes BOLT's profiles: the fdata text that
// `perf2bolt -p perf.data -o out.fdata BINARY` writes (LLVM 22), its no-LBR
// form (`perf2bolt --ba`), and the pre-aggregated text `perf2bolt --pa`
// reads.
//
// In: the binary (internal/binary) and, per sample, its branch stack (LBR,
// BRBE; newest first, with the mispredict flags of record.Sample) or its
// IP, with the delta from addrspace that turns the process's runtime
// addresses into the binary's. Traces counts branch stacks as perf2bolt's
// DataAggregator does: one trace per entry, (branch source, branch target,
// source of the next newer branch). Out: the text files.
//
// BOLT's view of the binary is rebuilt here: its functions (symbols, PLT
// stubs, `name/N` for local symbols; Funcs) and, for the fall-through
// records perf2bolt derives from each trace, each function's basic blocks as
// BOLT's CFG builder cuts them (blocks.go). docs/bolt.md says what is exact
// and what is not.
package boltprof
