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

// appendMMap2 appends a PERF_RECORD_MMAP2 line.
func appendMMap2(b []byte, h *head, pid int, m mapping) []byte {
	b = appendHead(b, h)
	b = fmt.Appendf(b, "PERF_RECORD_MMAP2 %d/%d: [", pid, pid)
	b = appendHex(b, m.Addr)
	b = append(b, '(')
	b = appendHex(b, m.Len)
	b = append(b, ") @ "...)
	b = appendHex(b, m.Pgoff)
	return fmt.Appendf(b, " %02x:%02x %d %d]: %s %s\n", m.Maj, m.Min, m.Ino, m.Gen, m.Prot, m.Path)
}

// appendFork appends a FORK record; h is the parent's.
// appendMMap appends a PERF_RECORD_MMAP line (the kernel's text).
func appendMMap(b []byte, h *head, m mapping) []byte {
	b = appendHead(b, h)
	b = append(b, "PERF_RECORD_MMAP -1/0: ["...)
	b = appendHex(b, m.Addr)
	b = append(b, '(')
	b = appendHex(b, m.Len)
	b = append(b, ") @ "...)
	b = appendHex(b, m.Pgoff)
	return fmt.Appendf(b, "]: %s %s\n", m.Prot, m.Path)
}

func appendFork(b []byte, h *head, child, parent int) []byte {
	b = appendHead(b, h)
	return fmt.Appendf(b, "PERF_RECORD_FORK(%d:%d):(%d:%d)\n", child, child, parent, parent)
}

func appendExit(b []byte, h *head, pid, parent int) []byte {
	b = appendHead(b, h)
	return fmt.Appendf(b, "PERF_RECORD_EXIT(%d:%d):(%d:%d)\n", pid, pid, parent, parent)
}

// appendCommExec appends the COMM record of an exec; the kernel keeps 15
// characters of the command name.
func appendCommExec(b []byte, h *head, pid int, comm string) []byte {
	comm = taskComm(comm)
	b = appendHead(b, h)
	return fmt.Appendf(b, "PERF_RECORD_COMM exec: %s:%d/%d\n", comm, pid, pid)
}

// taskComm is the command name as the kernel keeps it: 15 characters.
func taskComm(comm string) string {
	if len(comm) > 15 {
		return comm[:15]
	}
	return comm
}

// appendSampleLine appends one LBR sample as perf script -F [pid,]ip,brstack
// prints it: " %16x" for the IP, then " 0xFROM/0xTO/flags " per entry,
// newest first. reloc maps valgrind addresses into the process.
func appendSampleLine(b []byte, h *head, s *Sample, lay flagLayout, reloc func(uint64) uint64) []byte {
	b = appendHead(b, h)
	ip := strconv.FormatUint(reloc(s.IP), 16)
	b = append(b, ' ')
	for i := len(ip); i < 16; i++ {
		b = append(b, ' ')
	}
	b = append(b, ip...)
	for i := range s.Entries {
		b = appendEntry(b, &s.Entries[i], lay, reloc)
	}
	return append(b, '\n')
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
