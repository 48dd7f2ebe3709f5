// Package callstack aggregates call-stack samples (perf record -g: an
// instruction pointer and a call chain per sample) into counts keyed by
// canonical stacks.
//
// In: perf script records (samples with frames, MMAP, FORK, EXIT and COMM
// exec events) and the profiled binaries. Each frame is resolved to a
// binary and a canonical virtual address (the ELF vaddr, ASLR removed)
// through the per-PID address spaces, or kept apart as a kernel frame or a
// frame of another DSO. Return addresses of caller frames are moved back
// by one byte, into the call instruction. Out: Counts, one entry per
// distinct stack with its sample count and summed period.
package callstack

// Frame is one frame of a sample as perf script prints it.
type Frame struct {
	Addr   uint64
	Symbol string // perf's symbol name without +offset; "" when not printed
	DSO    string // path or [kernel.kallsyms]; "" when not printed
	// Absolute is set when Addr is a process address (the IP printed alone
	// on the sample line). Call-chain frames of perf 6.1 are DSO-relative.
	Absolute bool
}

// Sample is one perf sample: frames leaf first.
type Sample struct {
	PID    int // -1 when the script has no pid field
	Period uint64
	Event  string
	TimeNS uint64 // perf's timestamp in nanoseconds; 0 when not printed
	Frames []Frame
}

// Mmap is a PERF_RECORD_MMAP/MMAP2 event: [Start, Start+Len) of PID maps
// Path at file offset PgOff.
type Mmap struct {
	PID        int
	Start, Len uint64
	PgOff      uint64
	Path       string
	Executable bool
}

// Fork is a PERF_RECORD_FORK event (a new thread when PID == ParentPID).
type Fork struct{ PID, TID, ParentPID int }

// Exit is a PERF_RECORD_EXIT event.
type Exit struct{ PID, TID int }

// Exec is a PERF_RECORD_COMM event flagged exec: PID runs a new image.
type Exec struct{ PID int }
