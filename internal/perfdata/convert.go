package perfdata

import (
	"fmt"

	"github.com/profgen/profgen/internal/perfdatafile"
	"github.com/profgen/profgen/internal/record"
)

// What perf script prints of each record, with the fields of ScriptArgs:
// for branch stacks `pid ip brstack` (the call chain, when there is one,
// instead of the ip), else `pid time: period event: ip sym (dso)` or the
// call chain, one `addr sym (dso)` frame a line.

func (n *Native) sample(rec *perfdatafile.Record) error {
	s := &n.smp
	if err := n.r.ParseSample(rec, s); err != nil {
		return err
	}
	n.stats.Samples++
	r := &n.rec
	r.Kind = record.KindSample
	r.HasPID, r.PID, r.TID = true, s.PID, s.PID // only the pid field is printed
	smp := &r.Sample
	smp.Count = 1
	lbr := n.content.BranchStack
	if !lbr {
		smp.Event = s.Attr.Name
		smp.Period = s.Period
		if s.HasTime {
			smp.TimeNS = s.Time - s.Time%1000 // printed in microseconds
		}
	}
	t := n.mc.findnew(s.PID, s.TID)
	if s.HasChain {
		n.callchain(t, s, !lbr, lbr && n.content.Callchain)
	} else {
		smp.HasIP, smp.IP = true, s.IP
		if !lbr {
			smp.IPSymbol, smp.IPDSO = n.symbolAndDSO(n.mc.findMap(t, s.CPUMode, s.IP), s.IP)
		}
	}
	if lbr && s.HasBranch {
		for _, b := range s.Branches {
			if b.Flags&perfdatafile.BranchMispred != 0 {
				smp.MarkMispredicted(len(smp.Branches))
			}
			smp.Branches = append(smp.Branches, record.Branch{From: b.From, To: b.To})
		}
	}
	return nil
}

// callchain resolves the call chain as perf's
// thread__resolve_callchain_sample does: context markers switch between
// kernel and user lookups (user first), an unknown marker empties the
// chain, at most maxStack addresses are kept; a frame in a user mapping
// prints DSO-relative.
//
// symbols is -F sym,dso (call-stack input); dso alone is -F dso (hybrid
// input: perf script -F pid,ip,dso,brstack).
func (n *Native) callchain(t *thread, s *perfdatafile.Sample, symbols, dso bool) {
	smp := &n.rec.Sample
	cpumode := uint16(cpumodeUser)
	entries := 0
	for _, ip := range s.Callchain {
		if entries >= maxStack {
			break
		}
		if ip >= perfdatafile.ContextMax {
			switch ip {
			case perfdatafile.ContextHV:
				cpumode = perfdatafile.MiscHypervisor
			case perfdatafile.ContextKernel:
				cpumode = cpumodeKernel
			case perfdatafile.ContextUser:
				cpumode = cpumodeUser
			default: // a corrupted chain: perf drops it all
				smp.Frames = smp.Frames[:0]
				return
			}
			continue
		}
		entries++
		m := n.mc.findMap(t, cpumode, ip)
		f := record.Frame{Addr: ip}
		if m != nil && !m.kernel {
			f.Addr = m.mapIP(ip)
		}
		switch {
		case symbols && n.deferredName(m):
			f.DSO = m.dso
		case symbols:
			f.Symbol, f.DSO = n.symbolAndDSO(m, ip)
		case dso && m != nil:
			f.DSO = m.dso
		case dso:
			f.DSO = "[unknown]"
		}
		f.Relative = f.DSO != "" && f.DSO != "[unknown]" && !record.IsKernelDSO(f.DSO)
		smp.Frames = append(smp.Frames, f)
	}
}

// deferredName reports whether a frame in m is left for the reader to
// name (DeferChainSymbols): when m tells the reader, by the name it
// prints, whether it is kernel code, which the name is looked up as.
func (n *Native) deferredName(m *pmap) bool {
	return n.deferChain && n.names != nil && m != nil && m.kernel == record.IsKernelDSO(m.dso)
}

// symbolAndDSO is what perf prints for an address with -F sym,dso.
func (n *Native) symbolAndDSO(m *pmap, ip uint64) (sym, dso string) {
	if m == nil {
		return "[unknown]", "[unknown]"
	}
	sym = ""
	if n.names != nil {
		if m.kernel {
			sym = n.names.Name(m.path, true, ip)
		} else {
			sym = n.names.Name(m.path, false, m.mapIP(ip))
		}
	}
	if sym == "" {
		sym = "[unknown]"
	}
	return sym, m.dso
}

func (n *Native) mmap(rec *perfdatafile.Record) error {
	m, err := n.r.ParseMmap(rec)
	if err != nil {
		return err
	}
	prot := m.Prot
	if !m.V2 && rec.Misc&perfdatafile.MiscMmapData == 0 {
		prot = protExec
	}
	var buildID string
	if len(m.BuildID) > 0 {
		buildID = fmt.Sprintf("%x", m.BuildID)
		ids := n.BuildIDs()
		if _, ok := ids[m.Path]; !ok {
			ids[m.Path] = buildID
		}
	}
	cpumode := rec.Misc & perfdatafile.MiscCPUModeMask
	if cpumode == cpumodeKernel {
		n.mc.kernelMmap(m.Addr, m.Len, m.PgOff, m.Path)
	} else {
		n.mc.mmap(m.PID, m.TID, m.Addr, m.Len, m.PgOff, prot, m.Path)
	}
	n.prefetch(cpumode == cpumodeKernel, prot, m.Path)
	r := &n.rec
	r.Kind = record.KindMmap
	r.HasPID, r.PID, r.TID = true, m.PID, m.TID
	r.Mmap = record.Mmap{Addr: m.Addr, Len: m.Len, PgOff: m.PgOff, Path: m.Path, V2: m.V2, BuildID: buildID}
	if m.V2 {
		r.Mmap.Prot = protString(m.Prot, m.Flags)
	} else if rec.Misc&perfdatafile.MiscMmapData != 0 {
		r.Mmap.Prot = "r"
	} else {
		r.Mmap.Prot = "x"
	}
	return nil
}

// protString is how perf prints an MMAP2's protection: r w x, then s
// (shared) or p.
func protString(prot, flags uint32) string {
	b := []byte("---p")
	for i, c := range "rwx" {
		if prot&(1<<i) != 0 {
			b[i] = byte(c)
		}
	}
	if flags&1 != 0 { // MAP_SHARED
		b[3] = 's'
	}
	return string(b)
}

func (n *Native) comm(rec *perfdatafile.Record) error {
	c, err := n.r.ParseComm(rec)
	if err != nil {
		return err
	}
	n.mc.findnew(c.PID, c.TID)
	r := &n.rec
	r.Kind = record.KindComm
	r.HasPID, r.PID, r.TID = true, c.PID, c.TID
	r.Exec, r.Comm = c.Exec, c.Comm
	return nil
}

// miscForkExec marks a FORK that perf synthesized for a running task.
const miscForkExec = 1 << 13

func (n *Native) task(rec *perfdatafile.Record) error {
	t, err := n.r.ParseTask(rec)
	if err != nil {
		return err
	}
	r := &n.rec
	r.Kind = record.KindExit
	if rec.Type == perfdatafile.RecordFork {
		r.Kind = record.KindFork
		n.mc.fork(t.PID, t.TID, t.PPID, t.PTID, rec.Misc&miscForkExec != 0)
	}
	r.HasPID, r.PID, r.TID = true, t.PID, t.TID
	r.ParentPID, r.ParentTID = t.PPID, t.PTID
	return nil
}

// prefetch starts loading the symbols of a code mapping when symbols are
// printed (not for branch stacks), so that a second core reads them while
// records are read.
func (n *Native) prefetch(kernel bool, prot uint32, path string) {
	if n.names == nil || n.deferChain || n.content.BranchStack || (!kernel && prot&protExec == 0) {
		return
	}
	n.names.Prefetch(path, kernel)
}
