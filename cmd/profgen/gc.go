package main

import (
	"os"
	"runtime/debug"

	"github.com/profgen/profgen/internal/driver"
)

// gcPercent is the garbage collector's target unless GOGC says otherwise:
// the heap grows to 1.5x the live data instead of 2x. Most of profgen's
// garbage is short-lived (DWARF entries, parsed lines), so collecting
// sooner costs little time and keeps peak memory near what is live: the
// peak RSS of an LBR conversion stays flat as the input grows.
const gcPercent = 50

// callStackGCPercent is the target of a conversion of call stacks to
// pprof: Go's default. Its live data (the binary's symbol tables, the
// stacks) only grows, so each collection at 50% marks most of it again:
// on the Go compiler's recording, 100 takes ~0.12 s less CPU of ~0.9 for
// ~8 MB more peak RSS (of ~160).
const callStackGCPercent = 100

// conversionGCPercent is the collector's target for the conversion opts
// asks for.
func conversionGCPercent(opts driver.Options) int {
	if opts.Format == "pprof" {
		return callStackGCPercent
	}
	return gcPercent
}

// setGCPercent sets the collector's target, unless GOGC sets it.
func setGCPercent(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}
