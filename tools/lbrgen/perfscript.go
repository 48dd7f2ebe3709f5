package main

import (
	"fmt"
	"strconv"
)

// flagLayout selects how the flags of a brstack entry are printed; perf's
// output changed over the years and every layout is in use.
type flagLayout int

const (
	layoutPlain flagLayout = iota // P/-/-/0               (perf ≤ 5.x)
	layoutTyped                   // M/-/-/12/COND/-       (perf ≥ 6.x with branch types and cycles)
	layoutSpec                    // P/-/-/0//NON_SPEC_CORRECT_PATH (AMD: no type, speculation info)
)

var layoutNames = map[string]flagLayout{"plain": layoutPlain, "typed": layoutTyped, "spec": layoutSpec}

// mapping is one PERF_RECORD_MMAP2 record.
type mapping struct {
	Addr, Len, Pgoff uint64
	Maj, Min         uint32
	Ino, Gen         uint64
	Prot             string
	Path             string
}

// head is the leading columns of a line of a combined script: `-F pid`
// gives "%5d "; perf's default leading fields (full) give
// "%16s %5d/%-5d [%03d] %5d.%06d: " (comm, pid/tid, cpu, time) and, on a
// sample, the event name. A nil *head prints no columns
// (llvm-profgen-19's layout).
type head struct {
	full   bool
	timed  bool // -F pid,time,period,event,...: "%5d %5d.%06d: ", then "%10d %s: " on samples
	period uint64
	pid    int
	comm   string
	cpu    int
	timeNs uint64
	event  string // samples only
}

func appendHead(b []byte, h *head) []byte {
	if h == nil {
		return b
	}
	if h.timed {
		return appendTimedHead(b, h)
	}
	if !h.full {
		return appendPadded(b, strconv.Itoa(h.pid), 5, ' ')
	}
	b = fmt.Appendf(b, "%16s %5d/%-5d [%03d] %5d.%06d: ", h.comm, h.pid, h.pid, h.cpu, h.timeNs/1e9, h.timeNs%1e9/1e3)
	if h.event != "" {
		b = append(append(b, h.event...), ": "...)
	}
	return b
}

// appendPadded appends s right-aligned in width, then sep.
func appendPadded(b []byte, s string, width int, sep byte) []byte {
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(append(b, s...), sep)
}

// appendHex appends %#x: "0" for zero, else 0x followed by lowercase hex.
func appendHex(b []byte, v uint64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	return strconv.AppendUint(append(b, "0x"...), v, 16)
}

// eventKind is the kind of a record of an output.
type eventKind uint8

const (
	evKernelMMap eventKind = iota // PERF_RECORD_MMAP of the kernel's text
	evMMap2
	evComm // exec
	evFork
	evExit
	evSample
)

// event is one record of an output, written as a perf script line and as a
// perf.data record. FORK: pid is the parent, other the child; EXIT: pid
// exits, other is its parent.
type event struct {
	kind   eventKind
	pid    int
	other  int
	m      mapping
	comm   string
	s      *Sample
	reloc  func(uint64) uint64 // valgrind address -> process address (samples)
	hybrid bool                // the sample carries its call chain
	stack  bool                // the sample is its call chain alone, frames with symbol and DSO
	frame  func(uint64) frameInfo
}

// appendEvent appends ev as perf script prints it, after the columns of h.
func appendEvent(b []byte, h *head, ev *event, lay flagLayout) []byte {
	b = appendHead(b, h)
	switch ev.kind {
	case evKernelMMap:
		return appendMMap(b, ev.m)
	case evMMap2:
		return appendMMap2(b, ev.pid, ev.m)
	case evComm:
		return fmt.Appendf(b, "PERF_RECORD_COMM exec: %s:%d/%d\n", taskComm(ev.comm), ev.pid, ev.pid)
	case evFork:
		return fmt.Appendf(b, "PERF_RECORD_FORK(%d:%d):(%d:%d)\n", ev.other, ev.other, ev.pid, ev.pid)
	case evExit:
		return fmt.Appendf(b, "PERF_RECORD_EXIT(%d:%d):(%d:%d)\n", ev.pid, ev.pid, ev.other, ev.other)
	}
	return appendSample(b, ev, lay)
}

// appendMMap2 appends a PERF_RECORD_MMAP2 line.
func appendMMap2(b []byte, pid int, m mapping) []byte {
	b = fmt.Appendf(b, "PERF_RECORD_MMAP2 %d/%d: [", pid, pid)
	b = appendHex(b, m.Addr)
	b = append(b, '(')
	b = appendHex(b, m.Len)
	b = append(b, ") @ "...)
	b = appendHex(b, m.Pgoff)
	return fmt.Appendf(b, " %02x:%02x %d %d]: %s %s\n", m.Maj, m.Min, m.Ino, m.Gen, m.Prot, m.Path)
}

// appendMMap appends a PERF_RECORD_MMAP line (the kernel's text).
func appendMMap(b []byte, m mapping) []byte {
	b = append(b, "PERF_RECORD_MMAP -1/0: ["...)
	b = appendHex(b, m.Addr)
	b = append(b, '(')
	b = appendHex(b, m.Len)
	b = append(b, ") @ "...)
	b = appendHex(b, m.Pgoff)
	return fmt.Appendf(b, "]: %s %s\n", m.Prot, m.Path)
}

// taskComm is the command name as the kernel keeps it: 15 characters.
func taskComm(comm string) string {
	if len(comm) > 15 {
		return comm[:15]
	}
	return comm
}

// appendSample appends an LBR sample as perf script -F [pid,]ip,brstack
// prints it: " %16x" for the IP, then " 0xFROM/0xTO/flags " per entry,
// newest first. A hybrid sample (perf record -b -g) prints its call chain
// instead of the IP: a newline, then "\t%16x\n" per frame, leaf first.
// ev.reloc maps valgrind addresses into the process.
func appendSample(b []byte, ev *event, lay flagLayout) []byte {
	s, reloc := ev.s, ev.reloc
	if ev.stack {
		return appendStack(b, ev)
	}
	if ev.hybrid {
		b = append(b, '\n')
		for _, a := range callchain(s) {
			b = append(appendFrame(append(b, '\t'), reloc(a)), '\n')
		}
	} else {
		b = appendFrame(append(b, ' '), reloc(s.IP))
	}
	for i := range s.Entries {
		b = appendEntry(b, &s.Entries[i], lay, reloc)
	}
	return append(b, '\n')
}

// appendFrame appends an address as "%16x".
func appendFrame(b []byte, a uint64) []byte {
	hex := strconv.FormatUint(a, 16)
	for i := len(hex); i < 16; i++ {
		b = append(b, ' ')
	}
	return append(b, hex...)
}

// callchain is the sample's call chain as perf records it from the user
// stack: the IP, then the return addresses, innermost first, at most
// maxStack entries in all.
func callchain(s *Sample) []uint64 {
	return append([]uint64{s.IP}, s.Stack[:min(len(s.Stack), maxStack-1)]...)
}

func appendEntry(b []byte, e *Entry, lay flagLayout, reloc func(uint64) uint64) []byte {
	b = strconv.AppendUint(append(b, " 0x"...), reloc(e.From), 16)
	b = strconv.AppendUint(append(b, "/0x"...), reloc(e.To), 16)
	switch lay {
	case layoutTyped:
		pred := byte('P')
		if e.Mispred {
			pred = 'M'
		}
		b = append(b, '/', pred)
		b = strconv.AppendUint(append(b, "/-/-/"...), uint64(e.Cycles), 10)
		b = append(append(append(b, '/'), e.Kind.String()...), "/- "...)
	case layoutSpec:
		b = append(b, "/P/-/-/0//NON_SPEC_CORRECT_PATH "...)
	default:
		b = append(b, "/P/-/-/0 "...)
	}
	return b
}
