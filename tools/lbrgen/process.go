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
	sp          space
	maps        []mapping
	ref         *atomicfile.File
	refName     string
	samples     uint64
}

func (w *world) newProc(pid, parent int, sp space, refPath string) (*proc, error) {
	p := &proc{pid: pid, parent: parent, sp: sp, maps: w.processMaps(sp), refName: refPath}
	f, err := atomicfile.Create(refPath)
	if err != nil {
		return nil, err
	}
	p.ref = f
	b := w.buf[:0]
	for _, m := range p.maps {
		b = appendMMap2(b, -1, pid, m)
	}
	w.buf = b
	_, err = f.Write(b)
	return p, err
}

// writeSample writes s to the process's reference and, when combined is
// not nil, with a PID column to the combined script.
func (w *world) writeSample(p *proc, s *Sample, combined *atomicfile.File) error {
	reloc := func(a uint64) uint64 { return w.lay.reloc(p.sp, a) }
	p.samples++
	b := appendSampleLine(w.buf[:0], -1, s, w.flags, reloc)
	if _, err := p.ref.Write(b); err != nil {
		return err
	}
	if combined != nil {
		b = appendSampleLine(b[:0], p.pid, s, w.flags, reloc)
		if _, err := combined.Write(b); err != nil {
			return err
		}
	}
	w.buf = b
	return nil
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

func (sc *singleScenario) sample(s *Sample) error { return sc.w.writeSample(sc.p, s, nil) }
func (sc *singleScenario) end() error             { return sc.p.ref.Commit() }
func (sc *singleScenario) abort() {
	if sc.p != nil {
		sc.p.ref.Abort()
	}
}

// multiScript is a combined script (perf script --show-mmap-events
// --show-task-events -F pid,ip,brstack) of processes started by one shell.
type multiScript struct {
	w         *world
	prefix    string
	rng       *rand.Rand
	f         *atomicfile.File
	shell     int
	live      []*proc
	done      []*proc
	instances map[int]int
	reuse     bool // PIDs may be reused: reference names carry the instance
}

func newMultiScript(w *world, prefix string, seed uint64, reuse bool) *multiScript {
	rng := rand.New(rand.NewPCG(seed, 0x6d756c7469))
	return &multiScript{w: w, prefix: prefix, rng: rng, shell: rng.IntN(3000000) + 1000000,
		instances: map[int]int{}, reuse: reuse}
}

func (m *multiScript) open() error {
	f, err := atomicfile.Create(m.prefix + ".script")
	if err != nil {
		return err
	}
	m.f = f
	_, err = f.WriteString("    0 PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1209988) @ 0xffffffff81000000]: x [kernel.kallsyms]_text\n")
	return err
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
	b := appendFork(m.w.buf[:0], pid, m.shell)
	b = appendCommExec(b, pid, m.w.comm)
	for _, mp := range p.maps {
		b = appendMMap2(b, pid, pid, mp)
	}
	m.w.buf = b
	m.live = append(m.live, p)
	_, err = m.f.Write(b)
	return p, err
}

// fork starts a child of parent: it inherits the parent's mappings and has
// no MMAP2 of its own in the combined script.
func (m *multiScript) fork(parent *proc, pid int) (*proc, error) {
	p, err := m.w.newProc(pid, parent.pid, parent.sp, m.refPath(pid))
	if err != nil {
		return nil, err
	}
	m.w.buf = appendFork(m.w.buf[:0], pid, parent.pid)
	m.live = append(m.live, p)
	_, err = m.f.Write(m.w.buf)
	return p, err
}

func (m *multiScript) exit(p *proc) error {
	for i, q := range m.live {
		if q == p {
			m.live = append(m.live[:i], m.live[i+1:]...)
			break
		}
	}
	m.done = append(m.done, p)
	m.w.buf = appendExit(m.w.buf[:0], p.pid, p.parent)
	if _, err := m.f.Write(m.w.buf); err != nil {
		return err
	}
	return p.ref.Commit()
}

// sampleAny gives s to a live process drawn at random.
func (m *multiScript) sampleAny(s *Sample) error {
	return m.w.writeSample(m.pick(), s, m.f)
}

func (m *multiScript) pick() *proc { return m.live[m.rng.IntN(len(m.live))] }

// finish ends the live processes, youngest first, and writes the manifest.
func (m *multiScript) finish() error {
	for len(m.live) > 0 {
		if err := m.exit(m.live[len(m.live)-1]); err != nil {
			return err
		}
	}
	if err := m.f.Commit(); err != nil {
		return err
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
	if m.f != nil {
		m.f.Abort()
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
