package pseudoprobe

import (
	"math"
	"sort"

	"github.com/profgen/profgen/internal/binary/sectionreader"
)

// Type is a probe's kind.
type Type uint8

// Probe types (llvm/IR/PseudoProbe.h PseudoProbeType).
const (
	Block        Type = 0
	IndirectCall Type = 1
	DirectCall   Type = 2
)

func (t Type) String() string {
	switch t {
	case Block:
		return "Block"
	case IndirectCall:
		return "IndirectCall"
	case DirectCall:
		return "DirectCall"
	}
	return "Unknown"
}

// Probe attributes (llvm/IR/PseudoProbe.h PseudoProbeAttributes).
const (
	AttrReserved         = 1
	AttrSentinel         = 2
	AttrHasDiscriminator = 4
)

// EntryIndex is the index of a function's entry probe.
const EntryIndex = 1

// Probe is one decoded probe.
type Probe struct {
	Addr          uint64
	Index         uint32
	Discriminator uint32
	Type          Type
	Attributes    uint8
	Node          *Node // the inline tree node of the function the probe belongs to
}

// GUID is the GUID of the function the probe belongs to.
func (p *Probe) GUID() uint64 { return p.Node.GUID }

// IsEntry tells whether p is its function's entry probe.
func (p *Probe) IsEntry() bool { return p.Index == EntryIndex }

// IsCall tells whether p marks a call (direct or indirect).
func (p *Probe) IsCall() bool { return p.Type == DirectCall || p.Type == IndirectCall }

// Node is a function in the inline tree: a top-level (outlined) function,
// or a function inlined at call-site probe Site of its Parent.
type Node struct {
	GUID     uint64
	Site     uint32   // call-site probe index in Parent; 0 for a top-level function
	Parent   *Node    // nil for a top-level function
	Probes   []*Probe // the function's own probes here, by address
	children map[siteKey]*Node
}

type siteKey struct {
	guid uint64
	site uint32
}

// IsTopLevel tells whether n is an outlined function (not inlined).
func (n *Node) IsTopLevel() bool { return n.Parent == nil }

func (n *Node) child(guid uint64, site uint32) *Node {
	k := siteKey{guid, site}
	if c := n.children[k]; c != nil {
		return c
	}
	if n.children == nil {
		n.children = map[siteKey]*Node{}
	}
	c := &Node{GUID: guid, Site: site, Parent: n}
	n.children[k] = c
	return c
}

// Table holds the decoded probes by address.
type Table struct {
	probes []Probe // by address; probes at one address in section order
	Roots  []*Node // the top-level records kept, in section order
}

// Options choose what Decode keeps.
type Options struct {
	// FuncStart returns the start address of the function whose symbol
	// name has the given GUID; the first probe of a top-level record is
	// relative to it. A GUID it does not know leaves the address where the
	// previous record ended, as LLVM does.
	FuncStart func(guid uint64) (uint64, bool)
	// Keep tells which top-level records to keep, by GUID (nil: all). The
	// others are read past: llvm-profgen decodes only the functions that
	// have samples.
	Keep func(guid uint64) bool
}

// frame is a record being decoded: its node (nil when dropped) and the
// inlinees still to read.
type frame struct {
	node    *Node
	pending uint64
}

// Decode decodes the .pseudo_probe section.
func Decode(data []byte, opts Options) (*Table, error) {
	d := &decoder{r: sectionreader.New(ProbeSection, data), opts: opts, t: &Table{}}
	for !d.r.Done() {
		d.topLevel()
	}
	if d.r.Err() != nil {
		return nil, d.r.Err()
	}
	sort.SliceStable(d.t.probes, func(i, j int) bool { return d.t.probes[i].Addr < d.t.probes[j].Addr })
	d.t.link()
	return d.t, nil
}

type decoder struct {
	r        *sectionreader.Reader
	opts     Options
	t        *Table
	lastAddr uint64
	// addrBased says the section uses absolute probe addresses (an old
	// encoding): top-level records then do not restart from their
	// function's start.
	addrBased bool
	stack     []frame
}

// topLevel decodes one outlined function's record with its inlinees,
// depth first, without recursion.
func (d *decoder) topLevel() {
	guid := d.r.U64("function GUID")
	var node *Node
	if d.opts.Keep == nil || d.opts.Keep(guid) {
		node = &Node{GUID: guid}
		d.t.Roots = append(d.t.Roots, node)
	}
	if !d.addrBased {
		if a, ok := d.funcStart(guid); ok {
			d.lastAddr = a
		}
	}
	d.stack = append(d.stack[:0], frame{node: node, pending: d.body(node)})
	for len(d.stack) > 0 && d.r.Err() == nil {
		top := &d.stack[len(d.stack)-1]
		if top.pending == 0 {
			d.stack = d.stack[:len(d.stack)-1]
			continue
		}
		top.pending--
		site := uint32(d.r.Uint("inline site", math.MaxUint32))
		guid := d.r.U64("inlinee GUID")
		var child *Node
		if top.node != nil {
			child = top.node.child(guid, site)
		}
		d.stack = append(d.stack, frame{node: child, pending: d.body(child)})
	}
}

// body reads a record's probe count, inlinee count and probes, adding
// the probes to node unless it is nil; it returns the inlinee count.
func (d *decoder) body(node *Node) uint64 {
	nprobes := d.r.Uint("probe count", math.MaxUint32)
	ninlinees := d.r.Uint("inlinee count", math.MaxUint32)
	for i := uint64(0); i < nprobes && d.r.Err() == nil; i++ {
		d.probe(node)
	}
	return ninlinees
}

func (d *decoder) probe(node *Node) {
	index := uint32(d.r.Uint("probe index", math.MaxUint32))
	packed := d.r.U8("probe type")
	typ, attr := Type(packed&0xf), packed>>4&0x7
	var addr uint64
	if packed&0x80 != 0 {
		addr = d.lastAddr + uint64(d.r.Int("address delta"))
	} else {
		addr = d.r.U64("probe address")
		if attr&AttrSentinel != 0 {
			// The GUID of the split-off part the following probes are in.
			if a, ok := d.funcStart(addr); ok {
				addr = a
			}
		} else {
			d.addrBased = true
		}
	}
	var disc uint32
	if attr&AttrHasDiscriminator != 0 {
		disc = uint32(d.r.Uint("probe discriminator", math.MaxUint32))
	}
	if d.r.Err() != nil {
		return
	}
	if node != nil && attr&AttrSentinel == 0 {
		d.t.probes = append(d.t.probes, Probe{Addr: addr, Index: index, Discriminator: disc, Type: typ, Attributes: attr, Node: node})
	}
	d.lastAddr = addr
}

func (d *decoder) funcStart(guid uint64) (uint64, bool) {
	if d.opts.FuncStart == nil {
		return 0, false
	}
	a, ok := d.opts.FuncStart(guid)
	return a, ok && a != 0
}

// IndexFromDiscriminator returns the probe index clang packs into the
// DWARF discriminator of an instruction of a probe build
// (PseudoProbeDwarfDiscriminator::extractProbeIndex): bits 3-18, or bits
// 3-15 when bit 28 says a DWARF base discriminator takes bits 16-18.
func IndexFromDiscriminator(d uint32) uint32 {
	if d&(1<<28) != 0 {
		return d >> 3 & 0x1fff
	}
	return d >> 3 & 0xffff
}
