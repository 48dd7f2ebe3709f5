package driver

import (
	"fmt"
	"strings"
)

// A scenario is a made-up multi-process recording of t-pie.bin: processes
// at different bases, a forked child, and a recycled PID. It renders as one
// perf script with a PID column and as one PID-less script per process
// lifetime (what llvm-profgen-19 can read).
type scenario struct {
	procs  []*proc
	events []event // in time order
}

type proc struct {
	pid    int
	base   uint64 // runtime address of the text segment (file offset 0x1000)
	mmap   bool   // has its own MMAP2 (a forked child has not)
	script strings.Builder
}

type event struct {
	line string
	proc int // index of the process whose per-process script gets the sample; -1: none
}

const textOff = 0x1000 // t-pie.bin's text segment: vaddr 0x1000, offset 0x1000

// loops are branch stacks of t-pie.bin in canonical addresses, newest first.
var loops = [][][2]uint64{
	{{0x113f, 0x1159}, {0x1134, 0x113c}, {0x1154, 0x1130}, {0x1165, 0x1150}, {0x113f, 0x1159}, {0x1154, 0x1130}, {0x1165, 0x1150}},
	{{0x113f, 0x1159}, {0x1154, 0x1130}, {0x1165, 0x1150}, {0x113f, 0x1159}, {0x1134, 0x113c}, {0x1154, 0x1130}},
	{{0x1171, 0x7f0000001000}, {0x1165, 0x1150}, {0x7f0000002000, 0x1140}, {0x7f0000003000, 0x7f0000002000}},
}

func (p *proc) mmapLine() string {
	return fmt.Sprintf("PERF_RECORD_MMAP2 %d/%d: [%#x(0x1000) @ %#x fe:00 1234 0]: r-xp /build/t-pie.bin\n", p.pid, p.pid, p.base, textOff)
}

// runtime maps a canonical address into p's address space; addresses
// outside the binary stay as they are.
func (p *proc) runtime(a uint64) uint64 {
	if a >= 0x1000 && a < 0x2000 {
		return a - textOff + p.base
	}
	return a
}

func (p *proc) sampleLine(loop int, pidColumn bool) string {
	var b strings.Builder
	if pidColumn {
		fmt.Fprintf(&b, "%7d ", p.pid)
	}
	st := loops[loop]
	fmt.Fprintf(&b, "%16x", p.runtime(st[0][1]))
	for _, e := range st {
		fmt.Fprintf(&b, " 0x%x/0x%x/P/-/-/0", p.runtime(e[0]), p.runtime(e[1]))
	}
	return b.String() + "\n"
}

func (s *scenario) add(line string, proc int) { s.events = append(s.events, event{line, proc}) }

func (s *scenario) start(p *proc) int {
	s.procs = append(s.procs, p)
	i := len(s.procs) - 1
	if p.mmap {
		fmt.Fprintf(&p.script, "%d PERF_RECORD_COMM exec: t-pie.bin:%d/%d\n", p.pid, p.pid, p.pid)
		s.add(fmt.Sprintf("%d %s", p.pid, p.mmapLine()), -1)
	}
	return i
}

func (s *scenario) sample(i, loop int) {
	p := s.procs[i]
	s.add(p.sampleLine(loop, true), i)
	p.script.WriteString(p.sampleLine(loop, false))
}

func multiProcessScenario() *scenario {
	s := &scenario{}
	a := s.start(&proc{pid: 100, base: 0x555500001000, mmap: true})
	b := s.start(&proc{pid: 200, base: 0x560000001000, mmap: true})
	c := s.start(&proc{pid: 101, base: 0x561100001000, mmap: true})
	d := s.start(&proc{pid: 102, base: 0x562200001000, mmap: true})
	for i := 0; i < 6; i++ {
		s.sample(a, i%3)
		s.sample(b, (i+1)%3)
		s.sample(c, i%2)
		s.sample(d, 2)
	}
	s.add("100 PERF_RECORD_FORK(300:300):(100:100)\n", -1)
	child := s.start(&proc{pid: 300, base: 0x555500001000})
	s.add("999      5555000011f0 0x555500001165/0x555500001150/P/-/-/0\n", -1) // no mapping: dropped
	for i := 0; i < 4; i++ {
		s.sample(child, i%2)
		s.sample(a, 1)
	}
	s.add("200 PERF_RECORD_EXIT(200:200):(1:1)\n", -1)
	s.add("200 PERF_RECORD_FORK(200:200):(1:1)\n", -1)
	s.add("200 PERF_RECORD_COMM exec: t-pie.bin:200/200\n", -1)
	recycled := s.start(&proc{pid: 200, base: 0x570000001000, mmap: true})
	for i := 0; i < 3; i++ {
		s.sample(recycled, i%3)
		s.sample(child, 2)
	}
	return s
}

func (s *scenario) combined() string {
	var b strings.Builder
	b.WriteString("; made-up multi-process recording: perf script -F pid,ip,brstack --show-mmap-events --show-task-events\n")
	for _, e := range s.events {
		b.WriteString(e.line)
	}
	return b.String()
}

// perProcess returns one llvm-profgen-19 input per process lifetime: the
// mapping it runs with (its own or its parent's), then its samples.
func (s *scenario) perProcess() []string {
	var out []string
	for _, p := range s.procs {
		out = append(out, p.mmapLine()+p.script.String())
	}
	return out
}
