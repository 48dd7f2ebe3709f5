package pseudoprobe

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/profgen/profgen/internal/binary/sectionreader"
)

// Desc describes one function that has probes: the GUID its probes name
// it by, the checksum of its control-flow graph (the profile's
// !CFGChecksum) and its name.
type Desc struct {
	GUID uint64
	Hash uint64
	Name string
}

// Descs are the descriptors of .pseudo_probe_desc by GUID.
type Descs struct {
	byGUID map[uint64]*Desc
}

// DecodeDescs decodes the .pseudo_probe_desc section. A GUID described
// twice keeps its first descriptor (one per translation unit that has the
// function; LLVM keeps the first too).
func DecodeDescs(data []byte) (*Descs, error) {
	r := sectionreader.New(DescSection, data)
	d := &Descs{byGUID: map[uint64]*Desc{}}
	for !r.Done() {
		guid := r.U64("function GUID")
		hash := r.U64("function hash")
		size := r.Uint("name size", math.MaxUint32)
		name := r.Bytes(size, "function name")
		if r.Err() != nil {
			break
		}
		if d.byGUID[guid] == nil {
			d.byGUID[guid] = &Desc{GUID: guid, Hash: hash, Name: string(name)}
		}
	}
	return d, r.Err()
}

// Lookup returns the descriptor of guid, or nil.
func (d *Descs) Lookup(guid uint64) *Desc { return d.byGUID[guid] }

// Len is the number of functions described.
func (d *Descs) Len() int { return len(d.byGUID) }

// Sorted returns the descriptors by GUID.
func (d *Descs) Sorted() []*Desc {
	out := make([]*Desc, 0, len(d.byGUID))
	for _, x := range d.byGUID {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GUID < out[j].GUID })
	return out
}

// Print writes the descriptors as llvm-profgen --show-pseudo-probe does
// (MCPseudoProbeDecoder::printGUID2FuncDescMap): by GUID.
func (d *Descs) Print(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "Pseudo Probe Desc:"); err != nil {
		return err
	}
	for _, x := range d.Sorted() {
		if _, err := fmt.Fprintf(w, "GUID: %d Name: %s\nHash: %d\n", x.GUID, x.Name, x.Hash); err != nil {
			return err
		}
	}
	return nil
}
