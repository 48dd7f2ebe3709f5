// Package record is the record model every source of samples produces: the
// perf script scanner (internal/perfscript) and the perf.data reader
// (internal/perfdata) both yield Records, and the address space, the
// aggregation and the unwinder read them.
//
// In: nothing (a model). Out: Record (MMAP, FORK, EXIT, COMM, or a Sample
// with its IP, Branch stack and Frame call chain), the Source interface a
// scan loop reads records through, and Stats of what a scan passed over.
package record

// Kind says what a Record holds.
type Kind uint8

// Record kinds.
const (
	KindSample Kind = iota
	KindMmap        // PERF_RECORD_MMAP or PERF_RECORD_MMAP2
	KindFork        // PERF_RECORD_FORK(child):(parent)
	KindExit        // PERF_RECORD_EXIT(pid):(ppid)
	KindComm        // PERF_RECORD_COMM [exec:]
)

func (k Kind) String() string {
	switch k {
	case KindSample:
		return "sample"
	case KindMmap:
		return "mmap"
	case KindFork:
		return "fork"
	case KindExit:
		return "exit"
	case KindComm:
		return "comm"
	}
	return "unknown"
}

// Record is one event or sample. Fields not used by its Kind are zero.
type Record struct {
	Kind Kind
	Line int // line number where the record starts (1-based)

	// PID and TID of the process: of a sample when the pid (or default
	// leading) fields are printed; of the event for MMAP, EXIT and COMM; of
	// the child for FORK.
	HasPID   bool
	PID, TID int32

	Mmap Mmap

	// ParentPID/ParentTID: the parent of a FORK, the parent of an EXIT.
	ParentPID, ParentTID int32

	Exec bool   // COMM: the process called exec
	Comm string // COMM: the new command name

	Sample Sample
}

// Mmap is a PERF_RECORD_MMAP or PERF_RECORD_MMAP2 event.
type Mmap struct {
	Addr, Len, PgOff uint64
	Prot             string // "r-xp" for MMAP2, "x" or "" for MMAP
	Path             string
	V2               bool
	// BuildID is the build id (lower-case hex) an MMAP2 carries in place
	// of device and inode (perf record --buildid-mmap), or "".
	BuildID string
}

// Sample is one sample: optional IP, LBR branch stack and call chain.
type Sample struct {
	Count uint64 // repeat count: 1, or the pre-aggregated count line before it

	// HasIP and IP: the instruction pointer printed on the sample line
	// itself (-F ip without a call chain, or -G). perf prints it as a
	// process address, never DSO-relative.
	HasIP bool
	IP    uint64
	// IPSymbol and IPDSO: the sym and dso fields printed after the IP on
	// the sample line (-F ip,sym,dso), or "".
	IPSymbol, IPDSO string

	Event  string // event name without its trailing colon ("cycles:u", "cpu-clock"), or ""
	Period uint64 // the period field, 0 when not printed
	TimeNS uint64 // the time field in nanoseconds, 0 when not printed

	// Branches is perf's brstack, newest branch first.
	Branches []Branch
	// Mispredicted[i] says that Branches[i] was mispredicted (perf's M
	// flag; BOLT's fdata counts them). It is as long as Branches, or
	// shorter when the source stopped reading flags: entries past its end
	// were predicted.
	Mispredicted []bool
	// BadBranch is set when the brstack had an entry that did not parse;
	// Branches holds the entries before it (llvm-profgen stops there too).
	BadBranch bool
	// BadBranchLine and BadBranchText: the number of the line holding the
	// bad entry and its first MaxQuotedBytes bytes.
	BadBranchLine int
	BadBranchText string

	// Frames is the call chain, leaf first (perf -g), or nil.
	Frames []Frame
}

// MarkMispredicted notes that Branches[i] was mispredicted. Mispredicted
// grows only up to the last mispredicted branch: a branch stack without
// one (most traces) costs nothing.
func (s *Sample) MarkMispredicted(i int) {
	for len(s.Mispredicted) < i {
		s.Mispredicted = append(s.Mispredicted, false)
	}
	s.Mispredicted = append(s.Mispredicted, true)
}

// Leaf returns the sample's leaf address and whether it is absolute: the
// first call-chain frame, or else the sample line's IP.
func (s *Sample) Leaf() (addr uint64, absolute, ok bool) {
	if len(s.Frames) > 0 {
		f := s.Frames[0]
		return f.Addr, !f.Relative, true
	}
	return s.IP, true, s.HasIP
}

// Branch is one LBR entry: a taken branch from From to To. It is the one
// branch type: the aggregate counts branches by it too (aggregate.Counters,
// in the binary's preferred addresses), and the unwinder reads them.
type Branch struct {
	From, To uint64
}

// Frame is one line of a call chain: `\t addr [sym+off] [(dso)]`.
//
// perf (6.1 and later) prints a call-chain address relative to the DSO it
// falls in (`map_ip`: address - mapping start + page offset, the file
// offset), except for kernel frames and frames in no known mapping
// (`[unknown]`), which are absolute. Relative says which one perf printed;
// it is decided by the DSO field alone. Without a DSO field (-F ip) the
// kind cannot be told: Relative is false and DSO is "".
type Frame struct {
	Addr     uint64
	Symbol   string // symbol with its +0xoff as perf prints it, or ""
	DSO      string // without the parentheses, or ""
	Relative bool   // Addr is DSO-relative (a file offset in DSO)
}

// IsKernelDSO reports whether a DSO name is the kernel's or a kernel
// module's as perf prints it (`[kernel.kallsyms]`, `[nf_tables]`...).
func IsKernelDSO(dso string) bool {
	return len(dso) > 1 && dso[0] == '[' && dso != "[unknown]" && dso != "[vdso]" && dso != "[vsyscall]" && dso != "[heap]" && dso != "[stack]"
}

// Source is a stream of records: perfscript.Scanner and perfdata.Native.
// A Record returned by Record is valid until the next call to Next.
type Source interface {
	Next() bool
	Record() *Record
	Err() error
	Stats() Stats
}

// Stats counts what a scan of the input passed over (perf script lines, or perf.data records).
type Stats struct {
	Lines          int // lines read
	SkippedLines   int // lines that are neither a record nor a comment (perf warnings, unknown sample layouts)
	SkippedRecords int // PERF_RECORD_* kinds this package does not model (LOST, SWITCH, …)
	// Units counts what llvm-profgen takes for a sample when it warns
	// about shares of samples (its NumTotalSample): each sample, and each
	// line outside samples but mmap events (blank lines, comments, pid
	// lines of their own, other events).
	Units int
	// Skipped are the first MaxSkippedKept skipped lines, by line number
	// (llvm-profgen warns about each).
	Skipped []LineText
}

// LineText is a line of the input: its number and its first
// MaxQuotedBytes bytes.
type LineText struct {
	Line int
	Text string
}

// MaxSkippedKept bounds the skipped lines kept in Stats.
const MaxSkippedKept = 100

// Add adds the counts of o, the Stats of input that follows s's.
func (s *Stats) Add(o Stats) {
	s.Lines += o.Lines
	s.SkippedLines += o.SkippedLines
	s.SkippedRecords += o.SkippedRecords
	s.Units += o.Units
	s.Skipped = append(s.Skipped, o.Skipped[:min(len(o.Skipped), MaxSkippedKept-len(s.Skipped))]...)
}
