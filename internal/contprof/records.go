package contprof

import (
	"github.com/profgen/profgen/internal/record"
)

// VaddrOffset turns an ELF virtual address in a mapping's file into a
// file offset, as the binary's program headers place it; false when no
// executable segment holds it.
type VaddrOffset func(m *Mapping, vaddr uint64) (uint64, bool)

// Records returns the profile's samples as a record.Source, the form the
// call-stack aggregation (aggregate.Stacks.Add) takes perf's samples in:
// one sample record per Sample, its Count the weight, its Frames perf's
// call-chain frames: file offsets relative to the mapping's file, kernel
// addresses absolute, callers as return addresses (the aggregation takes 1
// from them again). Frames of a mapping with VirtualAddrs go through
// toOffset; with a nil toOffset, or where it fails, they are left out.
func (p *Profile) Records(toOffset VaddrOffset) record.Source {
	return &records{p: p, toOffset: toOffset, next: -1}
}

type records struct {
	p        *Profile
	toOffset VaddrOffset
	next     int
	rec      record.Record
	frames   []record.Frame
}

func (r *records) Next() bool {
	r.next++
	if r.next >= len(r.p.Samples) {
		return false
	}
	s := r.p.Samples[r.next]
	r.frames = r.perfFrames(r.frames[:0], s.Frames)
	r.rec = record.Record{Kind: record.KindSample, Line: r.next + 1,
		Sample: record.Sample{Count: s.Weight, Event: r.p.SampleType, Frames: r.frames}}
	return true
}

// perfFrames appends frames as perf prints a call chain.
func (r *records) perfFrames(dst []record.Frame, frames []Frame) []record.Frame {
	prevUser := false
	for _, f := range frames {
		m := &r.p.Mappings[f.Mapping]
		addr, ok := r.fileAddr(m, f.Addr)
		if !ok {
			continue
		}
		if prevUser {
			addr++ // back to the return address
		}
		dst = append(dst, record.Frame{Addr: addr, DSO: m.Path, Relative: !m.Kernel})
		prevUser = !m.Kernel
	}
	return dst
}

// fileAddr is a frame's address as perf prints it: a file offset, or the
// kernel address.
func (r *records) fileAddr(m *Mapping, addr uint64) (uint64, bool) {
	if !m.VirtualAddrs || m.Kernel {
		return addr, true
	}
	if r.toOffset == nil {
		return 0, false
	}
	return r.toOffset(m, addr)
}

func (r *records) Record() *record.Record { return &r.rec }

func (r *records) Err() error { return nil }

func (r *records) Stats() record.Stats { return record.Stats{} }
