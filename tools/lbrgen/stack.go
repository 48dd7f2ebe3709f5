package main

import (
	"debug/elf"
	"fmt"
	"sort"
)

// Call-stack samples (perf record -g, no branch stack), as `perf script -F
// pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events`
// prints them (perf 6.1):
//
//	3548188 10078.431953:       1000 cycles:u:
//		            1234 main (/abs/path/binary)
//		           2a0f4 [unknown] (/usr/aarch64-linux-gnu/lib/libc.so.6)
//	(a blank line)
//
// A frame is the IP, then the return addresses of the shadow call stack
// (exact: every frame really was active), innermost first. perf prints a
// user frame relative to its DSO (addr - map start + pgoff), then the
// function symbol of the binary holding it ([unknown] in the shared
// objects, whose symbols lbrgen does not read) and the DSO's path.

// funcSym is a function symbol of the binary: [Addr, Addr+Size).
type funcSym struct {
	Addr, Size uint64
	Name       string
}

// funcSyms reads the function symbols of .symtab (else .dynsym), sorted
// by address.
func funcSyms(f *elf.File) []funcSym {
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		syms, _ = f.DynamicSymbols()
	}
	var out []funcSym
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 && s.Section != elf.SHN_UNDEF {
			out = append(out, funcSym{s.Value, s.Size, s.Name})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

// funcAt names the function holding vaddr, "[unknown]" outside every one.
func (b *binaryInfo) funcAt(vaddr uint64) string {
	i := sort.Search(len(b.Funcs), func(i int) bool { return b.Funcs[i].Addr > vaddr })
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if s := b.Funcs[j]; vaddr < s.Addr+max(s.Size, 1) {
			return s.Name
		}
	}
	return "[unknown]"
}

// frameInfo is a call-chain frame as perf prints it.
type frameInfo struct {
	addr     uint64 // DSO-relative, or absolute outside every mapping
	sym, dso string
}

// frameOf places the frames of p's samples: a is a traced (valgrind or
// qemu) address.
func (w *world) frameOf(p *proc) func(a uint64) frameInfo {
	return func(a uint64) frameInfo {
		pa := w.lay.reloc(p.sp, a)
		for _, m := range p.maps {
			if pa < m.Addr || pa >= m.Addr+m.Len {
				continue
			}
			fi := frameInfo{addr: pa - m.Addr + m.Pgoff, sym: "[unknown]", dso: m.Path}
			if w.lay.inMain(a) {
				fi.sym = w.bin.funcAt(a - w.lay.vgBias)
			}
			return fi
		}
		return frameInfo{addr: pa, sym: "[unknown]", dso: "[unknown]"}
	}
}

// appendTimedHead appends the columns of -F pid,time[,period,event]:
// "%5d %5d.%06d: ", then "%10d %s: " on a sample.
func appendTimedHead(b []byte, h *head) []byte {
	b = fmt.Appendf(b, "%5d %5d.%06d: ", h.pid, h.timeNs/1e9, h.timeNs%1e9/1e3)
	if h.event != "" {
		b = fmt.Appendf(b, "%10d %s: ", h.period, h.event)
	}
	return b
}

// appendStack appends a call-stack sample after its header columns: a
// newline, "\t%16x %s (%s)\n" per frame, a blank line.
func appendStack(b []byte, ev *event) []byte {
	b = append(b, '\n')
	for _, a := range callchain(ev.s) {
		fi := ev.frame(a)
		b = append(appendFrame(append(b, '\t'), fi.addr), ' ')
		b = append(append(append(append(b, fi.sym...), " ("...), fi.dso...), ")\n"...)
	}
	return append(b, '\n')
}

// archName is the machine as uname -m (and perf's ARCH header) names it.
func (b *binaryInfo) archName() string {
	if b.Machine == elf.EM_AARCH64 {
		return "aarch64"
	}
	return "x86_64"
}
