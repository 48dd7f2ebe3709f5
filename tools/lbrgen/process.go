package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/profgen/profgen/internal/atomicfile"
)

// world holds what every simulated process shares: the binary, valgrind's
// layout, the external mappings seen under valgrind, the output layout.
type world struct {
	lay   layout
	bin   *binaryInfo
	path  string    // binary path printed in MMAP2 lines
	comm  string    // command name printed in COMM lines
	ext   []mapping // executable mappings other than the binary, valgrind addresses
	flags flagLayout
	buf   []byte
}

// processMaps are the executable mappings of a process with address space
// sp: the binary's first, then the shared objects.
func (w *world) processMaps(sp space) []mapping {
	ms := w.bin.execMappings(sp.bias, w.path)
	for _, m := range w.ext {
		m.Addr += sp.extShift
		ms = append(ms, m)
	}
	return ms
}

// proc is one simulated process (one lifetime of a PID). Its samples also
// go to its reference script: llvm-profgen-19's layout, no PID column.
type proc struct {
	pid, parent int
	comm        string
	sp          space
	maps        []mapping
	ref         *atomicfile.File
	refName     string
	samples     uint64
}

func (w *world) newProc(pid, parent int, sp space, refPath string) (*proc, error) {
	p := &proc{pid: pid, parent: parent, comm: w.comm, sp: sp, maps: w.processMaps(sp), refName: refPath}
	f, err := atomicfile.Create(refPath)
	if err != nil {
		return nil, err
	}
	p.ref = f
	b := w.buf[:0]
	for _, m := range p.maps {
		b = appendMMap2(b, nil, pid, m)
	}
	w.buf = b
	_, err = f.Write(b)
	return p, err
}

// reloc maps valgrind addresses into p's address space.
func (w *world) reloc(p *proc) func(uint64) uint64 {
	return func(a uint64) uint64 { return w.lay.reloc(p.sp, a) }
}

// writeRef writes s to the process's reference script.
func (w *world) writeRef(p *proc, s *Sample) error {
	p.samples++
	w.buf = appendSampleLine(w.buf[:0], nil, s, w.flags, w.reloc(p))
	_, err := p.ref.Write(w.buf)
	return err
}

// scenario is one output: a single process, or several processes in one
// combined script plus a reference per process.
type scenario interface {
	begin() error
	sample(s *Sample) error
	end() error
	abort()
}

// singleScenario writes one process in llvm-profgen-19's layout.
type singleScenario struct {
	w    *world
	path string
	rng  *rand.Rand
	p    *proc
}

func (sc *singleScenario) begin() (err error) {
	sc.p, err = sc.w.newProc(sc.rng.IntN(3000000)+1000000, 1, newSpace(sc.rng, sc.w.bin.PIE), sc.path)
	return err
}

func (sc *singleScenario) sample(s *Sample) error { return sc.w.writeRef(sc.p, s) }
func (sc *singleScenario) end() error             { return sc.p.ref.Commit() }
func (sc *singleScenario) abort() {
	if sc.p != nil {
		sc.p.ref.Abort()
	}
}

// multiScript is a combined script (perf script --show-mmap-events
// --show-task-events -F pid,ip,brstack) of processes started by one shell,
// optionally also with perf's default leading columns (PREFIX-full.script).
type multiScript struct {
	w         *world
	prefix    string
	rng       *rand.Rand
	outs      []combinedOut
	shell     int
	live      []*proc
	done      []*proc
	instances map[int]int
	reuse     bool   // PIDs may be reused: reference names carry the instance
	full      bool   // also write PREFIX-full.script
	nowNs     uint64 // the clock of the full layout
}

type combinedOut struct {
	f    *atomicfile.File
	full bool
}

// clockStart is the time of the first record in the full layout; a
// sample's time is clockStart + 1 ns per instruction.
const clockStart = 10078431951000

func newMultiScript(w *world, prefix string, seed uint64, reuse, full bool) *multiScript {
	rng := rand.New(rand.NewPCG(seed, 0x6d756c7469))
	return &multiScript{w: w, prefix: prefix, rng: rng, shell: rng.IntN(3000000) + 1000000,
		instances: map[int]int{}, reuse: reuse, full: full, nowNs: clockStart}
}

func (m *multiScript) open() error {
	names := []string{m.prefix + ".script"}
	if m.full {
		names = append(names, m.prefix+"-full.script")
	}
	for i, name := range names {
		f, err := atomicfile.Create(name)
		if err != nil {
			return err
		}
		m.outs = append(m.outs, combinedOut{f: f, full: i == 1})
	}
	kernel := mapping{Addr: 0xffffffff81000000, Len: 0x1209988, Pgoff: 0xffffffff81000000, Prot: "x", Path: "[kernel.kallsyms]_text"}
	return m.write(head{pid: 0, comm: "swapper"}, func(b []byte, h *head) []byte {
		h.timeNs = 0
		return appendMMap(b, h, kernel)
	})
}

// write appends a line made by line to every combined output, with the
// columns of h (time: now).
func (m *multiScript) write(h head, line func([]byte, *head) []byte) error {
	for _, out := range m.outs {
		h.full, h.timeNs, h.cpu = out.full, m.nowNs, h.pid%2
		m.w.buf = line(m.w.buf[:0], &h)
		if _, err := out.f.Write(m.w.buf); err != nil {
			return err
		}
	}
	return nil
}

func (m *multiScript) refPath(pid int) string {
	m.instances[pid]++
	if m.reuse {
		return fmt.Sprintf("%s.%d-%d.script", m.prefix, pid, m.instances[pid])
	}
	return m.prefix + "." + strconv.Itoa(pid) + ".script"
}

// exec starts a process as a shell does: fork, exec, map the binary.
func (m *multiScript) exec(pid int) (*proc, error) {
	p, err := m.w.newProc(pid, m.shell, newSpace(m.rng, m.w.bin.PIE), m.refPath(pid))
	if err != nil {
		return nil, err
	}
	m.live = append(m.live, p)
	err = m.write(head{pid: m.shell, comm: "bash"}, func(b []byte, h *head) []byte {
		return appendFork(b, h, pid, m.shell)
	})
	if err != nil {
		return nil, err
	}
	return p, m.write(head{pid: pid, comm: taskComm(p.comm)}, func(b []byte, h *head) []byte {
		b = appendCommExec(b, h, pid, p.comm)
		for _, mp := range p.maps {
			b = appendMMap2(b, h, pid, mp)
		}
		return b
	})
}

// fork starts a child of parent: it inherits the parent's mappings and has
// no MMAP2 of its own in the combined script.
func (m *multiScript) fork(parent *proc, pid int) (*proc, error) {
	p, err := m.w.newProc(pid, parent.pid, parent.sp, m.refPath(pid))
	if err != nil {
		return nil, err
	}
	m.live = append(m.live, p)
	return p, m.write(head{pid: parent.pid, comm: taskComm(parent.comm)}, func(b []byte, h *head) []byte {
		return appendFork(b, h, pid, parent.pid)
	})
}

func (m *multiScript) exit(p *proc) error {
	for i, q := range m.live {
		if q == p {
			m.live = append(m.live[:i], m.live[i+1:]...)
			break
		}
	}
	m.done = append(m.done, p)
	err := m.write(head{pid: p.pid, comm: taskComm(p.comm)}, func(b []byte, h *head) []byte {
		return appendExit(b, h, p.pid, p.parent)
	})
	if err != nil {
		return err
	}
	return p.ref.Commit()
}

// sampleAny gives s to a live process drawn at random.
func (m *multiScript) sampleAny(s *Sample) error { return m.writeSample(m.pick(), s) }

func (m *multiScript) pick() *proc { return m.live[m.rng.IntN(len(m.live))] }

// writeSample writes s as p's to the combined outputs and p's reference.
func (m *multiScript) writeSample(p *proc, s *Sample) error {
	m.nowNs = clockStart + s.Insns
	reloc := m.w.reloc(p)
	err := m.write(head{pid: p.pid, comm: taskComm(p.comm), event: "cycles:u"}, func(b []byte, h *head) []byte {
		return appendSampleLine(b, h, s, m.w.flags, reloc)
	})
	if err != nil {
		return err
	}
	return m.w.writeRef(p, s)
}

// finish ends the live processes, youngest first, and writes the manifest.
func (m *multiScript) finish() error {
	for len(m.live) > 0 {
		if err := m.exit(m.live[len(m.live)-1]); err != nil {
			return err
		}
	}
	for _, out := range m.outs {
		if err := out.f.Commit(); err != nil {
			return err
		}
	}
	return m.writeManifest()
}

// writeManifest lists the processes: PID, parent, load bias, samples and
// reference script, one per line, in the order they exited.
func (m *multiScript) writeManifest() error {
	f, err := atomicfile.Create(m.prefix + ".procs")
	if err != nil {
		return err
	}
	defer f.Abort()
	fmt.Fprintf(f, "# pid\tparent\tbias\tsamples\treference\n")
	for _, p := range m.done {
		fmt.Fprintf(f, "%d\t%d\t%#x\t%d\t%s\n", p.pid, p.parent, p.sp.bias, p.samples, baseName(p.refName))
	}
	return f.Commit()
}

func (m *multiScript) abort() {
	for _, out := range m.outs {
		out.f.Abort()
	}
	for _, p := range m.live {
		p.ref.Abort()
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
