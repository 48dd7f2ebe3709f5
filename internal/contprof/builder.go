package contprof

import (
	"strings"

	"github.com/profgen/profgen/internal/record"
)

// kernelStart is where x86-64 and arm64 kernel addresses begin: a frame
// there in no kernel mapping is still the kernel's.
const kernelStart = 0xffff800000000000

// kernelPath names the mapping of kernel frames that come in none, as
// perf (and aggregate.KernelDSO) names the kernel.
const kernelPath = "[kernel.kallsyms]"

// builder collects a Profile's samples: a stack is read one frame at a
// time into a stackTally, which samples then share.
type builder struct {
	p       Profile
	cur     stackTally // the stack being read
	kernel  int32      // the mapping made for kernel frames in none, or -1
	unknown int32      // the mapping made for other frames in none, or -1
	mapped  bool       // a frame was kept in a mapping of a file or the kernel
	// userBelowKernelLessOne says the producer took 1 from the user frame
	// under kernel frames too (perf_to_profile takes 1 from every frame
	// but the first): perf's call chains, which the call-stack
	// aggregation reads, have that frame unadjusted, so 1 is added back.
	userBelowKernelLessOne bool
}

// stackTally is one call stack read: its native frames and the frames
// left out. Samples of the same stack add to one Sample, so that what a
// profile holds grows with its distinct stacks, not its samples.
type stackTally struct {
	sample                                int // index of its Sample in Profile.Samples, or -1
	frames                                []Frame
	kernel, noMapping, noAddress, outside uint64
	interpreted                           map[string]uint64
	lastKernel                            bool // the last frame kept is the kernel's
}

func newBuilder(kind Kind, sampleType string) *builder {
	return &builder{p: Profile{Kind: kind, SampleType: sampleType, Stats: Stats{Interpreted: map[string]uint64{}}}, kernel: -1, unknown: -1}
}

// addMapping appends m and returns its index.
func (b *builder) addMapping(m Mapping) int32 {
	b.p.Mappings = append(b.p.Mappings, m)
	return int32(len(b.p.Mappings) - 1)
}

// isFake reports whether a mapping's range is pprof's fake one.
func isFake(start, limit uint64) bool {
	return start == 0 && (limit == 0 || limit == ^uint64(0))
}

// isKernelPath reports whether a mapping's file is the kernel's, as perf
// names it ([kernel.kallsyms], [kernel.kallsyms]_text, …).
func isKernelPath(path string) bool { return record.IsKernelDSO(path) }

// addFrame adds a native frame at address addr in mapping mi (-1 for
// none) to the stack being read.
func (b *builder) addFrame(mi int32, addr uint64) {
	t := &b.cur
	if mi < 0 && addr >= kernelStart {
		mi = b.kernelMapping()
	}
	switch {
	case addr == 0 && mi < 0:
		// The end of a call chain perf could not follow: perf keeps it,
		// [unknown] at 0.
		t.noAddress++
		b.keep(Frame{b.unknownMapping(), 0}, false)
		return
	case addr == 0:
		t.noAddress++
		return
	case mi < 0:
		t.noMapping++
		b.keep(Frame{b.unknownMapping(), addr}, false)
		return
	}
	b.mapped = true
	m := &b.p.Mappings[mi]
	switch {
	case m.Kernel:
		t.kernel++
		b.keep(Frame{mi, addr}, true)
	case m.VirtualAddrs:
		b.keep(Frame{mi, addr}, false)
	case addr < m.Start || addr >= m.Limit:
		t.outside++
	default:
		b.keep(Frame{mi, addr - m.Start + m.Offset}, false)
	}
}

// keep appends a frame to the stack being read.
func (b *builder) keep(f Frame, kernel bool) {
	t := &b.cur
	if !kernel && t.lastKernel && b.userBelowKernelLessOne {
		f.Addr++
	}
	t.frames = append(t.frames, f)
	t.lastKernel = kernel
}

// kernelMapping returns the index of the mapping of kernel frames that
// come in none, made on first use.
func (b *builder) kernelMapping() int32 {
	if b.kernel < 0 {
		b.kernel = b.addMapping(Mapping{Path: kernelPath, Kernel: true})
	}
	return b.kernel
}

// unknownMapping returns the index of the mapping of the frames that come
// in none, made on first use.
func (b *builder) unknownMapping() int32 {
	if b.unknown < 0 {
		b.unknown = b.addMapping(Mapping{Path: unknownPath, Unknown: true})
	}
	return b.unknown
}

// unknownPath names the mapping of frames in none, as perf names it
// (aggregate.UnknownDSO).
const unknownPath = "[unknown]"

// addInterpreted counts a frame of an interpreter or JIT, left out.
func (b *builder) addInterpreted(frameType string) {
	if b.cur.interpreted == nil {
		b.cur.interpreted = map[string]uint64{}
	}
	b.cur.interpreted[frameType]++
}

// endStack returns the stack read and starts the next.
func (b *builder) endStack() *stackTally {
	t := b.cur
	t.frames = append([]Frame(nil), t.frames...)
	t.sample, t.lastKernel = -1, false
	b.cur = stackTally{frames: b.cur.frames[:0]}
	return &t
}

// addSample adds a sample of stack t, weight w and CPU time ns, in the
// time range tr.
func (b *builder) addSample(t *stackTally, w, ns uint64, tr timeRange) {
	if w == 0 {
		return
	}
	st := &b.p.Stats
	st.KernelFrames += t.kernel
	st.NoMapping += t.noMapping
	st.NoAddress += t.noAddress
	st.Outside += t.outside
	for k, n := range t.interpreted {
		st.Interpreted[k] += n
	}
	if len(t.frames) == 0 {
		st.Empty += w
		return
	}
	st.Weight += w
	if t.sample >= 0 {
		s := &b.p.Samples[t.sample]
		s.Weight += w
		s.CPUTime += ns
		s.FirstNS, s.LastNS = tr.widen(s.FirstNS, s.LastNS)
		return
	}
	t.sample = len(b.p.Samples)
	b.p.Samples = append(b.p.Samples, Sample{Frames: t.frames, Weight: w, CPUTime: ns, FirstNS: tr.first, LastNS: tr.last})
}

// timeRange is the first and last time of samples, 0 for none.
type timeRange struct{ first, last uint64 }

// add widens r to hold ns (0: none).
func (r *timeRange) add(ns uint64) {
	r.first, r.last = timeRange{ns, ns}.widen(r.first, r.last)
}

// widen is the range [first, last] widened to hold r.
func (r timeRange) widen(first, last uint64) (uint64, uint64) {
	if r.first != 0 && (first == 0 || r.first < first) {
		first = r.first
	}
	return first, max(last, r.last)
}

// normalHex is a build id in lower case.
func normalHex(id string) string { return strings.ToLower(id) }
