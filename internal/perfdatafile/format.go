// Package perfdatafile reads the perf.data file format that perf record writes
// (tools/perf/Documentation/perf.data-file-format.txt and
// include/uapi/linux/perf_event.h): the file header, the event attributes,
// the feature sections (build ids, event names, compression), and the
// record stream, in file mode (a seekable file) and pipe mode (perf record
// -o -), with zstd-compressed records (perf record -z) decompressed in
// place.
//
// In: an io.Reader (pipe mode or file) or a file path (mapped into memory).
// Out: a Reader that yields raw records in file order (Next, Record, Err),
// the attributes with their event names, and decoders for the records
// profgen uses (Sample with IP, TID, TIME, PERIOD, CALLCHAIN, BRANCH_STACK;
// MMAP, MMAP2, COMM, FORK, EXIT). It does not reorder records by time nor
// resolve addresses: internal/perfdata does that, as perf script does.
//
// Every length and offset in the input is checked against what holds it;
// an error names the byte offset in the file (and, for records inside a
// compressed record, the offset in its decompressed data). Memory is
// bounded whatever the input: a record is at most 64 KiB, decompressed data
// is bounded by MaxDecompressed.
package perfdatafile

import "encoding/binary"

// Record types (enum perf_event_type, and perf's user types from 64 on).
const (
	RecordMmap          = 1
	RecordLost          = 2
	RecordComm          = 3
	RecordExit          = 4
	RecordThrottle      = 5
	RecordUnthrottle    = 6
	RecordFork          = 7
	RecordRead          = 8
	RecordSample        = 9
	RecordMmap2         = 10
	RecordHeaderAttr    = 64
	RecordEventType     = 65
	RecordTracingData   = 66
	RecordBuildID       = 67
	RecordFinishedRound = 68
	RecordIDIndex       = 69
	RecordAuxtraceInfo  = 70
	RecordAuxtrace      = 71
	RecordEventUpdate   = 78
	RecordFeature       = 80
	RecordCompressed    = 81
	RecordFinishedInit  = 82
)

// Sample-type bits of perf_event_attr.sample_type.
const (
	SampleIP          = 1 << 0
	SampleTID         = 1 << 1
	SampleTime        = 1 << 2
	SampleAddr        = 1 << 3
	SampleRead        = 1 << 4
	SampleCallchain   = 1 << 5
	SampleID          = 1 << 6
	SampleCPU         = 1 << 7
	SamplePeriod      = 1 << 8
	SampleStreamID    = 1 << 9
	SampleRaw         = 1 << 10
	SampleBranchStack = 1 << 11
	SampleRegsUser    = 1 << 12
	SampleStackUser   = 1 << 13
	SampleIdentifier  = 1 << 16
)

// Branch-sample-type bits that change the record layout or meaning.
const (
	BranchCallStack = 1 << 11 // PERF_SAMPLE_BRANCH_CALL_STACK: LBR call stacks
	BranchHWIndex   = 1 << 17 // PERF_SAMPLE_BRANCH_HW_INDEX: a u64 hw_idx before the entries
)

// read_format bits.
const (
	readTotalTimeEnabled = 1 << 0
	readTotalTimeRunning = 1 << 1
	readID               = 1 << 2
	readGroup            = 1 << 3
	readLost             = 1 << 4
)

// perf_event_header.misc bits.
const (
	MiscCPUModeMask = 7
	MiscKernel      = 1
	MiscUser        = 2
	MiscHypervisor  = 3
	MiscCommExec    = 1 << 13 // COMM: the task called exec
	MiscMmapBuildID = 1 << 14 // MMAP2: a build id instead of device and inode
	MiscMmapData    = 1 << 13 // MMAP: a data (non-executable) mapping
)

// Call-chain context markers (enum perf_callchain_context).
const (
	ContextHV          = ^uint64(32 - 1)   // -32
	ContextKernel      = ^uint64(128 - 1)  // -128
	ContextUser        = ^uint64(512 - 1)  // -512
	ContextGuest       = ^uint64(2048 - 1) // -2048
	ContextGuestKernel = ^uint64(2176 - 1) // -2176
	ContextGuestUser   = ^uint64(2560 - 1) // -2560
	ContextMax         = ^uint64(4095 - 1) // -4095: values at or above are markers
)

// Feature bits of the header's bitmap (enum HEADER_*).
const (
	FeatBuildID     = 2
	FeatOSRelease   = 4
	FeatVersion     = 5
	FeatArch        = 6
	FeatNrCPUs      = 7
	FeatCmdline     = 11
	FeatEventDesc   = 12
	FeatBranchStack = 15
	FeatSampleTime  = 21
	FeatCompressed  = 27
)

const (
	magic       = "PERFILE2"
	magicSwap   = "2ELIFREP"
	fileHdrSize = 104 // struct perf_file_header
	pipeHdrSize = 16  // magic and size
	eventHdr    = 8   // struct perf_event_header
	// attrSizeVer0 is the size of the first perf_event_attr: what every
	// later one starts with, up to branch_sample_type excluded.
	attrSizeVer0 = 64
)

var le = binary.LittleEndian
