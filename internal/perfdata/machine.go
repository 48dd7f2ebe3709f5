package perfdata

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// machine is perf's view of the recorded machine (tools/perf/util/machine.c,
// thread.c, maps.c), as far as perf script needs it to print addresses:
// per thread group, the mappings that MMAP records made; the kernel's.
// It differs on purpose from internal/addrspace, which places samples as
// llvm-profgen does: perf keeps a process's mappings across exec and exit,
// maps non-executable mappings too, and names DSOs its own way.
type machine struct {
	threads map[int32]*thread // by tid
	kernel  maps
}

type thread struct {
	pid, tid int32
	maps     *maps // shared by the threads of a process
}

// pmap is one mapping as perf keeps it.
type pmap struct {
	start, end, pgoff uint64
	dso               string // the name perf prints in parentheses
	path              string // the file mapped
	kernel            bool   // kernel or module: perf prints absolute addresses
	identity          bool   // anonymous code: addresses are their own offsets
}

// mapIP is perf's map__map_ip: the DSO-relative address of ip.
func (m *pmap) mapIP(ip uint64) uint64 {
	if m.identity {
		return ip
	}
	return ip - m.start + m.pgoff
}

// maps is a sorted set of disjoint mappings.
type maps struct{ m []pmap }

// insert adds m, cutting what it overlaps out of older mappings (perf's
// maps__fixup_overlappings).
func (ms *maps) insert(m pmap) {
	i := sort.Search(len(ms.m), func(i int) bool { return ms.m[i].end > m.start })
	j := i
	var keep []pmap
	for ; j < len(ms.m) && ms.m[j].start < m.end; j++ {
		o := ms.m[j]
		if o.start < m.start {
			before := o
			before.end = m.start
			keep = append(keep, before)
		}
		if o.end > m.end {
			after := o
			after.start = m.end
			if !o.identity {
				after.pgoff = o.pgoff + (m.end - o.start)
			}
			keep = append(keep, after)
		}
	}
	keep = append(keep, m)
	sort.Slice(keep, func(a, b int) bool { return keep[a].start < keep[b].start })
	ms.m = append(ms.m[:i], append(keep, ms.m[j:]...)...)
}

func (ms *maps) find(addr uint64) *pmap {
	i := sort.Search(len(ms.m), func(i int) bool { return ms.m[i].end > addr })
	if i < len(ms.m) && ms.m[i].start <= addr {
		return &ms.m[i]
	}
	return nil
}

func (ms *maps) clone() *maps { return &maps{m: append([]pmap(nil), ms.m...)} }

func newMachine() *machine { return &machine{threads: map[int32]*thread{}} }

// findnew returns the thread, creating it (perf's machine__findnew_thread):
// a thread shares its group leader's mappings.
func (mc *machine) findnew(pid, tid int32) *thread {
	if t := mc.threads[tid]; t != nil {
		if t.pid == -1 && pid != -1 && pid != tid {
			t.pid = pid
			t.maps = mc.findnew(pid, pid).maps
		}
		return t
	}
	t := &thread{pid: pid, tid: tid}
	mc.threads[tid] = t
	if pid == tid || pid == -1 {
		t.maps = &maps{}
	} else {
		t.maps = mc.findnew(pid, pid).maps
	}
	return t
}

// fork is perf's machine__process_fork_event: the child replaces any
// thread of the same tid; a new process starts with a copy of its
// parent's mappings (not for synthesized forks: noClone).
func (mc *machine) fork(pid, tid, ppid, ptid int32, noClone bool) {
	parent := mc.findnew(ppid, ptid)
	if parent.pid != ppid {
		delete(mc.threads, ptid)
		parent = mc.findnew(ppid, ptid)
	}
	delete(mc.threads, tid)
	child := mc.findnew(pid, tid)
	if child.pid == parent.pid || child.maps == parent.maps || noClone {
		return
	}
	child.maps.m = append(child.maps.m[:0], parent.maps.m...)
}

// mmap adds a user mapping to the thread's process (perf's map__new).
func (mc *machine) mmap(pid, tid int32, start, length, pgoff uint64, prot uint32, path string) {
	t := mc.findnew(pid, tid)
	m := pmap{start: start, end: start + length, pgoff: pgoff, dso: path, path: path}
	switch {
	case path == "[vdso]":
		m.pgoff = 0
	case isAnonMemory(path) || isNoDSOMemory(path):
		m.identity = true
		if prot&protExec != 0 {
			m.dso = "/tmp/perf-" + strconv.Itoa(int(t.pid)) + ".map"
			m.path = m.dso
		}
	}
	t.maps.insert(m)
}

const protExec = 4

func isAnonMemory(p string) bool {
	return p == "//anon" || strings.HasPrefix(p, "/dev/zero") || strings.HasPrefix(p, "/anon_hugepage")
}

func isNoDSOMemory(p string) bool {
	return strings.HasPrefix(p, "[stack") || strings.HasPrefix(p, "/SYSV") || p == "[heap]"
}

// kernelMmap adds a kernel mapping: the kernel text ([kernel.kallsyms]_text)
// or a module (perf names it [name]).
func (mc *machine) kernelMmap(start, length, pgoff uint64, path string) {
	m := pmap{start: start, end: start + length, pgoff: pgoff, path: path, kernel: true, identity: true}
	switch {
	case strings.HasPrefix(path, "[kernel.kallsyms"):
		m.dso = "[kernel.kallsyms]"
		if start == 0 && length == 0 {
			m.end = ^uint64(0)
		}
		mc.kernel.m = slicesDeleteFunc(mc.kernel.m, func(o pmap) bool { return o.dso == "[kernel.kallsyms]" })
	case path != "" && (path[0] == '/' || path[0] == '['):
		m.dso = moduleName(path)
	default:
		return
	}
	mc.kernel.insert(m)
}

func slicesDeleteFunc(s []pmap, del func(pmap) bool) []pmap {
	out := s[:0]
	for _, m := range s {
		if !del(m) {
			out = append(out, m)
		}
	}
	return out
}

// moduleName is perf's short name of a kernel module: [name], from the
// file name without its .ko suffix, dashes as underscores.
func moduleName(path string) string {
	if path[0] == '[' {
		return path
	}
	base := filepath.Base(path)
	if i := strings.Index(base, ".ko"); i >= 0 {
		base = base[:i]
	}
	return "[" + strings.ReplaceAll(base, "-", "_") + "]"
}

// findMap is perf's thread__find_map: kernel addresses in the kernel's
// mappings, user addresses in the process's; nothing for other modes.
func (mc *machine) findMap(t *thread, cpumode uint16, addr uint64) *pmap {
	switch cpumode {
	case cpumodeKernel:
		return mc.kernel.find(addr)
	case cpumodeUser:
		return t.maps.find(addr)
	}
	return nil
}

const (
	cpumodeKernel = 1
	cpumodeUser   = 2
)
