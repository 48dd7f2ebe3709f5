package pseudoprobe

import (
	"strconv"
	"strings"
)

// FormatProbe renders p as llvm-profgen --show-pseudo-probe prints it
// before the instruction at its address (MCDecodedPseudoProbe::print):
//
//	[Probe]:	FUNC: main Index: 2  Type: DirectCall  Inlined: @ foo:3
//
// with the leading space and no newline. A GUID without a descriptor is
// printed as its number.
func (d *Descs) FormatProbe(p *Probe) string {
	var b strings.Builder
	b.WriteString(" [Probe]:\tFUNC: ")
	b.WriteString(d.name(p.Node.GUID))
	b.WriteString(" Index: ")
	b.WriteString(strconv.FormatUint(uint64(p.Index), 10))
	b.WriteString("  ")
	if p.Discriminator != 0 {
		b.WriteString("Discriminator: ")
		b.WriteString(strconv.FormatUint(uint64(p.Discriminator), 10))
		b.WriteString("  ")
	}
	b.WriteString("Type: ")
	b.WriteString(p.Type.String())
	b.WriteString("  ")
	var sites []string
	for n := p.Node; n.Parent != nil; n = n.Parent {
		sites = append(sites, d.name(n.Parent.GUID)+":"+strconv.FormatUint(uint64(n.Site), 10))
	}
	if len(sites) > 0 {
		b.WriteString("Inlined: @ ")
		for i := len(sites) - 1; i >= 0; i-- {
			b.WriteString(sites[i])
			if i > 0 {
				b.WriteString(" @ ")
			}
		}
	}
	return b.String()
}

func (d *Descs) name(guid uint64) string {
	if x := d.Lookup(guid); x != nil {
		return x.Name
	}
	return strconv.FormatUint(guid, 10)
}
