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
	rest     uint64 // samples of the current Sample still to hand, a period 1 ns longer
	lastNS   uint64 // the current Sample's last time, still to hand in a record of no sample
}

// Next hands the next Sample as a record: its weight the record's Count,
// its CPU time the Period of each sample (perf's period, summed by the
// aggregation as Period × Count); a CPU time the weight does not divide
// comes as two records of the same stack, of periods q and q + 1. The
// records of a Clock profile are of perf's event cpu-clock, the others of
// the sample type. They carry the Sample's first time; its last, when
// later, comes in one more record of the stack that counts no sample (the
// aggregation's time range, FirstNS and LastNS, is then the samples').
func (r *records) Next() bool {
	switch {
	case r.rest > 0:
		r.rec.Sample.Count, r.rec.Sample.Period, r.rest = r.rest, r.rec.Sample.Period+1, 0
		return true
	case r.lastNS > r.rec.Sample.TimeNS:
		r.rec.Sample.Count, r.rec.Sample.TimeNS, r.lastNS = 0, r.lastNS, 0
		return true
	}
	r.next++
	if r.next >= len(r.p.Samples) {
		return false
	}
	s := r.p.Samples[r.next]
	r.frames = r.perfFrames(r.frames[:0], s.Frames)
	r.rec = record.Record{Kind: record.KindSample, Line: r.next + 1,
		Sample: record.Sample{Count: s.Weight, Event: r.event(), TimeNS: microseconds(s.FirstNS), Frames: r.frames}}
	r.lastNS = microseconds(s.LastNS)
	if s.Weight > 0 && s.CPUTime > 0 {
		q, rem := s.CPUTime/s.Weight, s.CPUTime%s.Weight
		r.rec.Sample.Count, r.rec.Sample.Period, r.rest = s.Weight-rem, q, rem
	}
	return true
}

// microseconds is ns to the microsecond below, as perf script prints a
// sample's time (and package perfdata keeps it): the same samples then
// give the same time range from every input.
func microseconds(ns uint64) uint64 { return ns - ns%1000 }

// clockEvent is the perf event a Clock profile's records are of.
const clockEvent = "cpu-clock"

func (r *records) event() string {
	if r.p.Clock {
		return clockEvent
	}
	return r.p.SampleType
}

// perfFrames appends frames as perf prints a call chain: every caller
// frame, the kernel's too, back at its return address; the leaf, and the
// user frame under kernel frames, at their instruction.
func (r *records) perfFrames(dst []record.Frame, frames []Frame) []record.Frame {
	prevKernel := false
	for i, f := range frames {
		m := &r.p.Mappings[f.Mapping]
		addr, ok := r.fileAddr(m, f.Addr)
		caller := i > 0 && !(prevKernel && !m.Kernel)
		prevKernel = m.Kernel
		if !ok {
			continue
		}
		if caller {
			addr++ // back to the return address
		}
		dst = append(dst, record.Frame{Addr: addr, DSO: m.Path, Relative: !m.Kernel && !m.Unknown})
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
