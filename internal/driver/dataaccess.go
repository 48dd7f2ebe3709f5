package driver

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/dataaccess"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/record"
)

// errDataAccessMode is llvm-profgen 22's refusal of --data-access-perftrace
// for the profiles it cannot put vtables in.
var errDataAccessMode = errors.New("Symbolizing vtables from data access profiles is not yet supported for context-sensitive perf traces or when pseudo-probe based mapping is enabled.")

// vtablePrefix starts the names of vtables (the Itanium C++ ABI's).
const vtablePrefix = "_ZTV"

// dataAccesses reads --data-access-perftrace and counts the primary
// binary's vtable loads, as llvm-profgen 22 does: each sample's data
// address, in a mapping of the binary that is not executable, is moved to
// the binary's address through its file offset; when a data symbol named
// _ZTV… holds it, the sample counts once for that vtable at its
// instruction. The instruction addresses are placed by the trace's own
// mmap events, process by process (llvm-profgen uses the base the perf
// script gave; for one process they agree).
func dataAccesses(p *plan, bins *binaries, path string) ([]generate.DataAccess, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Failed to open perf trace file: %s: %w", path, err)
	}
	defer f.Close()
	trace, err := dataaccess.Read(f, path)
	if err != nil {
		return nil, err
	}
	c := newVTableCounter(p, bins)
	for i := range trace.Items {
		c.add(&trace.Items[i])
	}
	return c.accesses(), nil
}

// vtableCounter counts vtable loads while the trace's events place the
// binary.
type vtableCounter struct {
	bin    Binary
	table  *addrspace.Table // the executable mappings, for instructions
	data   []record.Mmap    // the other mappings of the binary, latest last
	pids   []int32
	counts map[generate.DataAccess]uint64 // keyed with Count 0
}

func newVTableCounter(p *plan, bins *binaries) *vtableCounter {
	return &vtableCounter{bin: bins.primary(), table: addrspace.New(bins.addrspaceBinary(), p.PIDs),
		pids: p.PIDs, counts: map[generate.DataAccess]uint64{}}
}

func (c *vtableCounter) add(it *dataaccess.Item) {
	if it.IsEvent {
		c.table.Update(&it.Event)
		m := it.Event.Mmap
		if it.Event.Kind == record.KindMmap && !strings.Contains(m.Prot, "x") && filepath.Base(m.Path) == filepath.Base(c.bin.Path()) {
			c.data = append(c.data, m)
		}
		return
	}
	s := it.Sample
	if len(c.pids) > 0 && !slices.Contains(c.pids, s.PID) {
		return
	}
	sym, ok := c.bin.DataSymbolAt(c.dataAddress(s.Addr))
	if !ok || !strings.HasPrefix(sym.Name, vtablePrefix) {
		return
	}
	ip, why := c.table.Canonical(true, s.PID, s.IP)
	if why != addrspace.OK {
		ip, _ = c.table.Canonical(false, 0, s.IP)
	}
	c.counts[generate.DataAccess{IP: ip, VTable: sym.Name}]++
}

// dataAddress maps a runtime data address to the binary's address space
// through the latest non-executable mapping holding it; an address none
// holds, or that does not land in a non-executable segment, stays.
func (c *vtableCounter) dataAddress(addr uint64) uint64 {
	for i := len(c.data) - 1; i >= 0; i-- {
		m := c.data[i]
		if addr < m.Addr || addr >= m.Addr+m.Len {
			continue
		}
		if off := addr - m.Addr + m.PgOff; off != 0 {
			if va, ok := c.bin.NonTextAddress(off); ok {
				return va
			}
		}
		return addr
	}
	return addr
}

// accesses returns the counts in address, then name order.
func (c *vtableCounter) accesses() []generate.DataAccess {
	out := make([]generate.DataAccess, 0, len(c.counts))
	for k, n := range c.counts {
		k.Count = n
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b generate.DataAccess) int {
		return cmp.Or(cmp.Compare(a.IP, b.IP), cmp.Compare(a.VTable, b.VTable))
	})
	return out
}
