package bbaddrmap

// Func is the map of one function.
type Func struct {
	Version  uint8
	Features Features
	// Ranges are the function's address ranges; the first holds its entry.
	Ranges []Range
	// PGO is the PGO analysis data, nil unless Features has some.
	PGO *PGO
}

// Addr is the function's address: the base of its first range.
func (f *Func) Addr() uint64 { return f.Ranges[0].Base }

// NumBlocks is the number of blocks in all ranges.
func (f *Func) NumBlocks() int {
	n := 0
	for _, r := range f.Ranges {
		n += len(r.Blocks)
	}
	return n
}

// Range is a contiguous part of a function: the function itself, or a
// section of its blocks.
type Range struct {
	Base   uint64
	Blocks []Block
}

// Block is one basic block.
type Block struct {
	ID uint32
	// Offset is the block's start from the range's base, Size its bytes.
	Offset, Size uint32
	Meta         Metadata
	// CallSiteEnds are the offsets, from the block's start, of the end of
	// each call in the block (with the CallSites feature).
	CallSiteEnds []uint32
	// Hash is the block's hash (with the BlockHash feature).
	Hash uint64
}

// Metadata are the bits of a block's metadata field.
type Metadata uint8

// Metadata bits.
const (
	HasReturn         Metadata = 1 << iota // ends with a return or a tail call
	HasTailCall                            // ends with a tail call
	IsEHPad                                // is an exception landing pad
	CanFallThrough                         // can fall through to the next block
	HasIndirectBranch                      // ends with an indirect branch
	metadataBits      = 1<<iota - 1
)

// Has tells whether all bits of b are set.
func (m Metadata) Has(b Metadata) bool { return m&b == b }

// Features are the bits of a function's feature field.
type Features uint16

// Feature bits.
const (
	FuncEntryCount Features = 1 << iota // PGO: the function's entry count
	BlockFreq                           // PGO: each block's frequency
	BranchProb                          // PGO: each block's successors and probabilities
	MultiRange                          // a range count, then any number of ranges
	OmitBlocks                          // no block entries (only PGO data)
	CallSites                           // call-site end offsets (version 3 on)
	BlockHash                           // block hashes (version 4 on)
	PostLinkCFG                         // PGO: post-link counts (version 5 on)
	featureBits    = 1<<iota - 1
)

// Has tells whether all bits of g are set.
func (f Features) Has(g Features) bool { return f&g == g }

func (f Features) hasPGO() bool { return f&(FuncEntryCount|BlockFreq|BranchProb) != 0 }

func (f Features) hasPGOBlocks() bool { return f&(BlockFreq|BranchProb) != 0 }

// PGO is a function's PGO analysis data.
type PGO struct {
	EntryCount uint64
	// Blocks are per block, in the order of the function's ranges and
	// blocks (with BlockFreq or BranchProb).
	Blocks []PGOBlock
}

// PGOBlock is the PGO data of one block.
type PGOBlock struct {
	Freq         uint64
	PostLinkFreq uint32
	Succs        []Succ
}

// Succ is a successor of a block and the probability of going there
// (numerator over 1<<31), with its post-link count.
type Succ struct {
	ID, Prob, PostLinkFreq uint32
}
