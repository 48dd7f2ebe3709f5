// Command profgen converts profiles for compilers and performance tools.
//
// Sample profiles: perf script text (or perf.data) of one or many processes,
// plus the profiled ELF binary, become LLVM sample profiles for clang's
// -fprofile-sample-use, or pprof profiles:
//
//	profgen --perfscript perf.script --binary ./app -o app.prof
//
// LBR samples (perf record -b) of one process or of many, each loaded at its
// own base: print them with
//
//	perf script --show-mmap-events --show-task-events -F pid,ip,brstack
//
// so that every sample is placed in its own process's address space (forked
// children inherit their parent's). --pid keeps only some processes;
// --skip-symbolization writes llvm-profgen's unsymbolized profile (address
// ranges and branches), which --unsymbolized-profile reads back.
//
// Instrumentation profiles: many .profraw files merge into one indexed
// .profdata:
//
//	profgen merge -o app.profdata prof-*.profraw
//
// A profile's summary (totals, the compiler's hot count threshold, the
// hottest functions demangled) or one function's counts and inline tree:
//
//	profgen show app.prof
//	profgen show --function main app.prof
//
// Errors are one line on stderr and a non-zero exit status; an output file is
// either written whole or not at all.
package main

import (
	"fmt"
	"os"

	"github.com/profgen/profgen/internal/atomicfile"
)

func main() {
	atomicfile.RemoveOnSignal()
	if err := newRootCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "profgen: "+err.Error())
		os.Exit(1)
	}
}
