// Package contprof reads the profiles continuous profilers write: pprof
// (perf_to_profile, Go's runtime/pprof, Parca, Pyroscope) and OTLP profiles
// (the OpenTelemetry eBPF profiler). It keeps their native call stacks as
// (mapping, file offset) frames with a weight, the input of profgen's
// call-stack address profile.
//
// In: the bytes of a pprof profile (gzipped or not), or of an OTLP
// ProfilesData or ExportProfilesServiceRequest in the profiles/v1development
// layout of opentelemetry-proto 1.10–1.11; the kind is sniffed from the
// content. Out: a Profile, or an *Error naming the file and byte offset.
//
// Addresses become file offsets by one rule for every producer: address −
// memory_start + file_offset. Every producer read here writes a caller
// frame's address inside its call instruction (the return address − 1),
// as profile.proto documents it, and Frame keeps that convention,
// aggregate.Loc's; Profile.Records hands the samples to the call-stack
// aggregation as perf's call chains (of perf's cpu-clock event, with their
// periods and times, when the profile gives their CPU time). Frames in no
// mapping are kept by their address, as perf's [unknown] frames. What each
// producer writes:
//   - Go's runtime/pprof: runtime addresses, callers at the return address
//     − 1 (runtime.Frame PCs; checked on testdata/gocpu against go tool
//     objdump), the leaf at its instruction, and so the frame a signal
//     interrupted to inject runtime.asyncPreempt (kept as it comes); the
//     executable's mapping with its GNU build id note.
//   - perf_to_profile: runtime addresses, callers at ip − 1, perf's mmap
//     start, limit and offset, and build ids from perf's build-id events.
//   - The OpenTelemetry eBPF profiler (processmanager's convertFrame and
//     the Go symbolizer: return addresses − 1; processinfo.go: a mapping's
//     start and limit in the file's ELF virtual address space, like its
//     frames' addresses; reporter/internal/pdata: samples/count with a
//     cpu/nanoseconds period and no values, each timestamp one sample;
//     off_cpu/nanoseconds and events/count profiles, refused by default).
//     Its frame types native and go are machine code in an ELF file;
//     kernel frames come in no mapping; the others (cpython, jvm, v8js,
//     php, ruby, perl, dotnet, beam, luajit, abort-marker) are counted and
//     left out.
package contprof

import (
	"os"

	"github.com/profgen/profgen/internal/pprofread"
)

// Kind is the format of a profile.
type Kind uint8

// The formats read.
const (
	KindPprof Kind = iota + 1
	KindOTLP
)

func (k Kind) String() string {
	switch k {
	case KindPprof:
		return "pprof"
	case KindOTLP:
		return "otlp"
	}
	return "unknown"
}

// Mapping is a file mapped into the profiled processes.
type Mapping struct {
	Path     string
	BuildIDs BuildIDs
	// Start, Limit and Offset are the mapping's memory range and file
	// offset, in the address space of its frames' addresses.
	Start, Limit, Offset uint64
	// VirtualAddrs is set for a pprof "fake" mapping (start 0, limit 0 or
	// ~0): its frames' addresses are ELF virtual addresses, kept as such,
	// not file offsets.
	VirtualAddrs bool
	Kernel       bool
	// Unknown is the mapping made for the frames that come in none (a
	// frame-pointer walk gone astray, JIT code): kept by their address, as
	// perf keeps its [unknown] frames.
	Unknown bool
}

// BuildIDs are the build ids a mapping carries, lower-case hex or "".
type BuildIDs struct {
	GNU string // the ELF note NT_GNU_BUILD_ID
	Go  string // Go's build id (its own text form)
	// HTLHash is the OpenTelemetry file id: the first 16 bytes of SHA-256
	// over the file's first and last 4 KiB and its big-endian length.
	HTLHash string
}

// Frame is one native frame: a file offset in a mapping (an ELF virtual
// address when the mapping has VirtualAddrs; the address itself for
// kernel frames). A caller frame's offset is inside its call instruction,
// as aggregate.Loc holds it; the leaf, and the user frame under kernel
// frames (where the kernel was entered), are at their instruction, as in
// perf's call chains.
type Frame struct {
	Mapping int32 // index in Profile.Mappings
	Addr    uint64
}

// Sample is a call stack, leaf first, and its weight in samples. An OTLP
// profile's samples of one stack are one Sample.
type Sample struct {
	Frames []Frame
	Weight uint64
	// CPUTime is the samples' CPU time in nanoseconds when the profile
	// has it (Profile.Clock): their sampling periods summed.
	CPUTime uint64
	// FirstNS and LastNS are the time range of the samples (OTLP
	// timestamps; a pprof profile's time and duration for every sample),
	// 0 when unknown.
	FirstNS, LastNS uint64
}

// Profile is the native call stacks of one profile file.
type Profile struct {
	Kind       Kind
	SampleType string // "type/unit" of the values read
	Mappings   []Mapping
	Samples    []Sample
	Stats      Stats
	// Clock says the samples carry their CPU time (Sample.CPUTime): the
	// profile is of a CPU clock, as perf's cpu-clock event.
	Clock bool
}

// Stats counts what was read and what was left out: frames once for each
// sample read that holds them, whatever its weight; Weight and Empty in
// samples.
type Stats struct {
	Weight       uint64 // of the samples kept
	KernelFrames uint64
	// Interpreted counts, by frame type (cpython, jvm, v8js, …), the
	// interpreter and JIT frames left out: no ELF file is behind them.
	Interpreted map[string]uint64
	NoMapping   uint64 // frames in no mapping, kept by their address (Mapping.Unknown)
	// NoAddress counts the frames with no address (names only): left out,
	// or in no mapping kept as perf's [unknown] frame at 0.
	NoAddress uint64
	Outside   uint64 // frames outside their mapping's range, left out
	// Empty is the weight of samples left with no frame.
	Empty uint64
	// OtherTypes counts the OTLP profiles skipped for their sample type.
	OtherTypes int
}

// ReadFile reads the profile in the file at path.
func ReadFile(path string, opts Options) (*Profile, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := Decode(raw, opts)
	return p, withFile(err, path)
}

// Options choose what is read.
type Options struct {
	// SampleType is the "type/unit" or "type" of the values to read; ""
	// takes CPU samples, else CPU time (defaultTypes).
	SampleType string
}

// Decode reads a profile from its bytes, gzipped or not.
func Decode(raw []byte, opts Options) (*Profile, error) {
	data, err := pprofread.Gunzip(raw)
	if err != nil {
		return nil, &Error{Offset: -1, Err: err}
	}
	switch sniff(data) {
	case KindOTLP:
		p, err := decodeOTLP(data, opts)
		return p, withKind(err, KindOTLP)
	default:
		return decodePprof(data, opts)
	}
}
