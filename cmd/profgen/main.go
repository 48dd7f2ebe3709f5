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
// --skip-symbolization writes the address profile: llvm-profgen's
// unsymbolized profile (address ranges and branches) of LBR input, and
// profgen's own (docs/address-profile.md) of call stacks, which
// --unsymbolized-profile reads back and profgen merge merges.
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
// Call stacks (perf record -g) go through the same pipeline and flags:
//
//	profgen --perfdata perf.data --binary ./app --format=pprof -o app.pprof
//
// One read of a recording can write several profiles, each as a run asking
// for it alone would (docs/outputs.md); several binaries give a file each:
//
//	profgen --perfdata perf.data --binary ./app -o app.prof --also bolt=app.fdata
//	profgen --perfdata perf.data --binary ./app --binary ./libfoo.so -o out/ --also gcc=out/
//
// The binary's disassembly, as llvm-profgen prints it (with each
// instruction's inline stack, and probes of a probe build):
//
//	profgen --show-disassembly-only --show-source-locations --binary ./app -o /dev/null
//
// Errors are one line on stderr; an output file is either written whole or
// not at all. Exit status: 0 the output was written; 1 bad, damaged or
// unusable input (nothing usable is an error, but for branch stacks of
// another program, which give llvm-profgen's empty profile), or
// an I/O error; 2 a usage error (unknown flag, bad value or combination),
// reported before any input is read.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/driver"
)

// Exit codes.
const (
	exitOK    = 0 // the output was written
	exitError = 1 // bad, damaged or unusable input, or an I/O error: nothing written
	exitUsage = 2 // an unknown flag, a bad flag value or combination: nothing read
)

func main() {
	setGCPercent(gcPercent)
	atomicfile.RemoveOnSignal()
	cmd := newRootCommand()
	cmd.SetArgs(llvmStyleArgs(os.Args[1:]))
	os.Exit(report(cmd.ExecuteContext(context.Background()), os.Stderr))
}

// report prints err as one line and returns the exit code for it: the one
// place errors become exit codes.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "profgen: error: "+err.Error())
	var usage *driver.UsageError
	if errors.As(err, &usage) || errors.As(err, new(usageError)) {
		return exitUsage
	}
	return exitError
}

// usageError is a flag the command line parser refused.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }
