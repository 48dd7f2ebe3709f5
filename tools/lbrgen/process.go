package main

import (
	"debug/elf"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
)

// world holds what every simulated process shares: the binary, valgrind's
// layout, the external mappings seen under valgrind, the output layout.
type world struct {
	lay  layout
	bin  *binaryInfo
	path string    // binary path printed in MMAP2 lines
	comm string    // command name printed in COMM lines
	ext  []mapping // executable mappings other than the binary, valgrind addresses
	// dsoBuildIDs (-dso-buildids): perf.data's build-id table lists the
	// shared objects too, as perf record does for those with samples.
	dsoBuildIDs bool
	flags       flagLayout
	period      uint64 // written as each sample's period in perf.data
	buf         []byte
}

// perfDataPath is the perf.data file written beside a script: FILE.script
// gives FILE.perf.data.
func perfDataPath(script string) string {
	return strings.TrimSuffix(script, ".script") + ".perf.data"
}

// newPerfData starts a perf.data output of the world's binary.
func (w *world) newPerfData(hybrid bool) *perfData {
	d := newPerfData(hybrid, w.flags, w.period, w.bin.BuildID, w.path)
	d.arch = w.bin.archName()
	if w.dsoBuildIDs {
		d.dsoBuildIDs = w.sharedObjectBuildIDs
	}
	return d
}

// sharedObjectBuildIDs are the build ids of the shared objects mapped
// (read from their files), in the order of their mappings, each once.
func (w *world) sharedObjectBuildIDs() []dsoBuildID {
	var out []dsoBuildID
	seen := map[string]bool{}
	for _, m := range w.ext {
		if seen[m.Path] {
			continue
		}
		seen[m.Path] = true
		f, err := elf.Open(m.Path)
		if err != nil {
			continue
		}
		if id := gnuBuildID(f); id != nil {
			out = append(out, dsoBuildID{m.Path, id})
		}
		f.Close()
	}
	return out
}

// writePerfData writes d to path.
func writePerfData(d *perfData, path string) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := d.writeTo(f); err != nil {
		return err
	}
	return f.Commit()
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
	hybrid      bool // samples carry their call chains
	stack       bool // samples are call stacks alone (perf record -g)
}

func (w *world) newProc(pid, parent int, sp space, refPath string, hybrid bool) (*proc, error) {
	p := &proc{pid: pid, parent: parent, comm: w.comm, sp: sp, maps: w.processMaps(sp), refName: refPath, hybrid: hybrid}
	f, err := atomicfile.Create(refPath)
	if err != nil {
		return nil, err
	}
	p.ref = f
	b := w.buf[:0]
	for _, m := range p.maps {
		b = appendMMap2(b, pid, m)
	}
	w.buf = b
	_, err = f.Write(b)
	return p, err
}

// reloc maps valgrind addresses into p's address space.
func (w *world) reloc(p *proc) func(uint64) uint64 {
	return func(a uint64) uint64 { return w.lay.reloc(p.sp, a) }
}

// sampleEvent is s as a sample of p.
func (w *world) sampleEvent(p *proc, s *Sample) *event {
	ev := &event{kind: evSample, pid: p.pid, s: s, reloc: w.reloc(p), hybrid: p.hybrid, stack: p.stack}
	if p.stack {
		ev.frame = w.frameOf(p)
	}
	return ev
}

// writeRef writes the sample ev of p to p's reference script.
func (w *world) writeRef(p *proc, ev *event) error {
	p.samples++
	var h *head // llvm-profgen-19's layout has no columns; a call stack needs its header line
	if ev.stack {
		h = &head{timed: true, pid: p.pid, timeNs: clockStart + ev.s.Insns, event: eventName, period: w.period}
	}
	w.buf = appendEvent(w.buf[:0], h, ev, w.flags)
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

// singleScenario writes one process in llvm-profgen-19's layout, and as
// perf.data if pd is set.
type singleScenario struct {
	w      *world
	path   string
	rng    *rand.Rand
	hybrid bool
	pd     *perfData
	p      *proc
}

func (sc *singleScenario) begin() (err error) {
	sc.p, err = sc.w.newProc(sc.rng.IntN(3000000)+1000000, 1, newSpace(sc.rng, sc.w.bin.PIE), sc.path, sc.hybrid)
	if err != nil || sc.pd == nil {
		return err
	}
	for _, m := range sc.p.maps {
		sc.pd.add(sc.id(clockStart), &event{kind: evMMap2, pid: sc.p.pid, m: m})
	}
	return nil
}

func (sc *singleScenario) id(t uint64) sampleID {
	return sampleID{pid: sc.p.pid, cpu: sc.p.pid % 2, time: t}
}

func (sc *singleScenario) sample(s *Sample) error {
	ev := sc.w.sampleEvent(sc.p, s)
	if sc.pd != nil {
		sc.pd.add(sc.id(clockStart+s.Insns), ev)
	}
	return sc.w.writeRef(sc.p, ev)
}

func (sc *singleScenario) end() error {
	if err := sc.p.ref.Commit(); err != nil || sc.pd == nil {
		return err
	}
	return writePerfData(sc.pd, perfDataPath(sc.path))
}
func (sc *singleScenario) abort() {
	if sc.p != nil {
		sc.p.ref.Abort()
	}
}

// multiScript is a combined script (perf script --show-mmap-events
// --show-task-events -F pid,ip,brstack) of processes started by one shell,
// optionally also with perf's default leading columns (PREFIX-full.script)
// and as perf.data (PREFIX.perf.data).
type multiScript struct {
	w         *world
	prefix    string
	rng       *rand.Rand
	outs      []combinedOut
	shell     int
	live      []*proc
	done      []*proc
	instances map[int]int
	reuse     bool // PIDs may be reused: reference names carry the instance
	full      bool // also write PREFIX-full.script
	hybrid    bool // samples carry their call chains
	stack     bool // samples are call stacks alone, with -F pid,time,period,event,ip,sym,dso columns
	pd        *perfData
	nowNs     uint64 // the clock of the full layout and of perf.data
}

type combinedOut struct {
	f    *atomicfile.File
	full bool
}

// clockStart is the time of the first record in the full layout; a
// sample's time is clockStart + 1 ns per instruction.
const clockStart = 10078431951000

// multiOpts are the choices of a combined output.
type multiOpts struct {
	reuse, full, hybrid, perfData bool
	stack                         bool // call stacks alone (perf record -g)
}

func newMultiScript(w *world, prefix string, seed uint64, o multiOpts) *multiScript {
	rng := rand.New(rand.NewPCG(seed, 0x6d756c7469))
	m := &multiScript{w: w, prefix: prefix, rng: rng, shell: rng.IntN(3000000) + 1000000,
		instances: map[int]int{}, reuse: o.reuse, full: o.full, hybrid: o.hybrid, stack: o.stack, nowNs: clockStart}
	if o.perfData {
		m.pd = w.newPerfData(o.hybrid)
		m.pd.stack = o.stack
	}
	return m
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
	return m.write(head{pid: 0, comm: "swapper"}, &event{kind: evKernelMMap, m: kernel})
}

// write writes ev to every combined output, with the columns of h (time:
// now; the kernel's map at 0).
func (m *multiScript) write(h head, ev *event) error {
	h.timeNs, h.cpu, h.timed = m.nowNs, h.pid%2, m.stack
	switch ev.kind {
	case evKernelMMap:
		h.timeNs = 0
	case evSample:
		h.event, h.period = eventName, m.w.period
	}
	for _, out := range m.outs {
		h.full = out.full
		m.w.buf = appendEvent(m.w.buf[:0], &h, ev, m.w.flags)
		if _, err := out.f.Write(m.w.buf); err != nil {
			return err
		}
	}
	if m.pd != nil {
		m.pd.add(sampleID{pid: h.pid, cpu: h.cpu, time: h.timeNs}, ev)
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
	p, err := m.w.newProc(pid, m.shell, newSpace(m.rng, m.w.bin.PIE), m.refPath(pid), m.hybrid)
	if err != nil {
		return nil, err
	}
	p.stack = m.stack
	m.live = append(m.live, p)
	if err := m.write(head{pid: m.shell, comm: "bash"}, &event{kind: evFork, pid: m.shell, other: pid}); err != nil {
		return nil, err
	}
	h := head{pid: pid, comm: taskComm(p.comm)}
	if err := m.write(h, &event{kind: evComm, pid: pid, comm: p.comm}); err != nil {
		return nil, err
	}
	for _, mp := range p.maps {
		if err := m.write(h, &event{kind: evMMap2, pid: pid, m: mp}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// fork starts a child of parent: it inherits the parent's mappings and has
// no MMAP2 of its own in the combined script.
func (m *multiScript) fork(parent *proc, pid int) (*proc, error) {
	p, err := m.w.newProc(pid, parent.pid, parent.sp, m.refPath(pid), m.hybrid)
	if err != nil {
		return nil, err
	}
	p.stack = m.stack
	m.live = append(m.live, p)
	return p, m.write(head{pid: parent.pid, comm: taskComm(parent.comm)}, &event{kind: evFork, pid: parent.pid, other: pid})
}

func (m *multiScript) exit(p *proc) error {
	for i, q := range m.live {
		if q == p {
			m.live = append(m.live[:i], m.live[i+1:]...)
			break
		}
	}
	m.done = append(m.done, p)
	err := m.write(head{pid: p.pid, comm: taskComm(p.comm)}, &event{kind: evExit, pid: p.pid, other: p.parent})
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
	ev := m.w.sampleEvent(p, s)
	if err := m.write(head{pid: p.pid, comm: taskComm(p.comm)}, ev); err != nil {
		return err
	}
	return m.w.writeRef(p, ev)
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
	if m.pd != nil {
		if err := writePerfData(m.pd, m.prefix+".perf.data"); err != nil {
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
