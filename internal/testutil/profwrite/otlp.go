package profwrite

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// otlpWriter builds an OTLP ProfilesData of profiles/v1development
// (opentelemetry-proto 1.10): its dictionary's tables, each with its
// zero entry first.
type otlpWriter struct {
	strs             map[string]uint64
	strTable         [][]byte
	mappings, locs   [][]byte
	attrs, stacks    [][]byte
	mapIdx, locIdx   map[string]uint64
	stackIdx         map[string]uint64
	attrIdx          map[string]uint64
	samples          [][]byte
	vaddr            map[string]func(off uint64) uint64 // by path
	ids              map[string]string
	kernelFrameAttrs uint64
	period           uint64 // of the samples (cpu-clock's is fixed)
}

func newOTLPWriter(ids map[string]string) *otlpWriter {
	w := &otlpWriter{strs: map[string]uint64{}, mapIdx: map[string]uint64{}, locIdx: map[string]uint64{},
		stackIdx: map[string]uint64{}, attrIdx: map[string]uint64{}, vaddr: map[string]func(uint64) uint64{}, ids: ids}
	w.str("")
	w.mappings, w.locs, w.attrs, w.stacks = [][]byte{nil}, [][]byte{nil}, [][]byte{nil}, [][]byte{nil}
	w.kernelFrameAttrs = w.attr("profile.frame.type", "kernel")
	return w
}

func (w *otlpWriter) str(s string) uint64 {
	if i, ok := w.strs[s]; ok {
		return i
	}
	w.strs[s] = uint64(len(w.strTable))
	w.strTable = append(w.strTable, []byte(s))
	return w.strs[s]
}

func (w *otlpWriter) attr(key, value string) uint64 {
	k := key + "=" + value
	if i, ok := w.attrIdx[k]; ok {
		return i
	}
	any := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte(value))
	b := appendVarintField(nil, 1, w.str(key))
	b = appendBytesField(b, 2, any)
	w.attrIdx[k] = uint64(len(w.attrs))
	w.attrs = append(w.attrs, b)
	return w.attrIdx[k]
}

func appendVarintField(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

func appendBytesField(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

// elfVaddr returns the function turning a file offset of the ELF file at
// path into its virtual address by the PT_LOAD holding it (the offset
// itself for a file that is no ELF file, as [vdso]).
func (w *otlpWriter) elfVaddr(path string) func(uint64) uint64 {
	if f, ok := w.vaddr[path]; ok {
		return f
	}
	var loads []elf.ProgHeader
	if ef, err := elf.Open(path); err == nil {
		for _, p := range ef.Progs {
			if p.Type == elf.PT_LOAD {
				loads = append(loads, p.ProgHeader)
			}
		}
		ef.Close()
	}
	w.vaddr[path] = func(off uint64) uint64 {
		for _, p := range loads {
			if off >= p.Off && off < p.Off+p.Filesz {
				return off - p.Off + p.Vaddr
			}
		}
		return off
	}
	return w.vaddr[path]
}

// mapping is the dictionary index of a process mapping, in ELF virtual
// addresses.
func (w *otlpWriter) mapping(sm *scriptMap) uint64 {
	key := fmt.Sprint(*sm)
	if i, ok := w.mapIdx[key]; ok {
		return i
	}
	va := w.elfVaddr(sm.path)(sm.pgoff)
	b := appendVarintField(nil, 1, va)
	b = appendVarintField(b, 2, va+sm.size)
	b = appendVarintField(b, 3, sm.pgoff)
	b = appendVarintField(b, 4, w.str(sm.path))
	if id := w.ids[sm.path]; id != "" {
		b = appendVarintField(b, 5, w.attr("process.executable.build_id.gnu", id))
	}
	w.mapIdx[key] = uint64(len(w.mappings))
	w.mappings = append(w.mappings, b)
	return w.mapIdx[key]
}

// location is the dictionary index of a frame's location.
func (w *otlpWriter) location(s *Sample, f scriptFrame, caller bool) uint64 {
	var b []byte
	addr := f.addr
	if caller && addr > 0 {
		addr--
	}
	switch sm := s.mapOf(f); {
	case isKernelDSO(f.dso):
		b = appendVarintField(appendVarintField(nil, 2, addr), 4, w.kernelFrameAttrs)
	case sm != nil:
		va := w.elfVaddr(sm.path)(f.addr)
		if caller {
			va--
		}
		b = appendVarintField(appendVarintField(nil, 1, w.mapping(sm)), 2, va)
	default:
		b = appendVarintField(nil, 2, addr)
	}
	key := string(b)
	if i, ok := w.locIdx[key]; ok {
		return i
	}
	w.locIdx[key] = uint64(len(w.locs))
	w.locs = append(w.locs, b)
	return w.locIdx[key]
}

// add adds a sample: its stack, and one timestamp.
func (w *otlpWriter) add(s *Sample) {
	var locs []byte
	prevKernel := false
	for i, f := range s.frames {
		// The user frame where the kernel was entered is at its
		// instruction, as the leaf.
		caller := i > 0 && !(prevKernel && !isKernelDSO(f.dso))
		prevKernel = isKernelDSO(f.dso)
		locs = protowire.AppendVarint(locs, w.location(s, f, caller))
	}
	b := appendVarintField(nil, 1, w.stack(appendBytesField(nil, 1, locs)))
	b = appendBytesField(b, 5, protowire.AppendFixed64(nil, s.timeNS))
	w.samples = append(w.samples, b)
}

// stack is the dictionary index of a stack.
func (w *otlpWriter) stack(stack []byte) uint64 {
	if i, ok := w.stackIdx[string(stack)]; ok {
		return i
	}
	w.stackIdx[string(stack)] = uint64(len(w.stacks))
	w.stacks = append(w.stacks, stack)
	return w.stackIdx[string(stack)]
}

// bytes is the ProfilesData: one resource, scope and profile of
// samples/count with a cpu/nanoseconds period.
func (w *otlpWriter) bytes() []byte {
	valueType := func(typ, unit string) []byte {
		return appendVarintField(appendVarintField(nil, 1, w.str(typ)), 2, w.str(unit))
	}
	prof := appendBytesField(nil, 1, valueType("samples", "count"))
	for _, s := range w.samples {
		prof = appendBytesField(prof, 2, s)
	}
	prof = appendBytesField(prof, 5, valueType("cpu", "nanoseconds"))
	prof = appendVarintField(prof, 6, w.period)
	scope := appendBytesField(nil, 2, prof)
	resource := appendBytesField(nil, 2, scope)
	var dict []byte
	for _, t := range []struct {
		num  protowire.Number
		rows [][]byte
	}{{1, w.mappings}, {2, w.locs}, {3, [][]byte{nil}}, {4, [][]byte{nil}}, {5, w.strTable}, {6, w.attrs}, {7, w.stacks}} {
		for _, r := range t.rows {
			dict = appendBytesField(dict, t.num, r)
		}
	}
	return appendBytesField(appendBytesField(nil, 1, resource), 2, dict)
}

// WriteOTLP writes samples to path as the OpenTelemetry eBPF profiler's
// OTLP profile, with the build ids ids (by path).
func WriteOTLP(t testing.TB, path string, samples []Sample, ids map[string]string) {
	t.Helper()
	w := newOTLPWriter(ids)
	for i := range samples {
		w.add(&samples[i])
		w.period = samples[i].period
	}
	if err := os.WriteFile(path, w.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Cut cuts samples, in their order, into n runs of consecutive samples
// whose sizes differ by one at most, as a profiler sending a profile
// every few seconds cuts its recording; fewer than n samples are cut
// into one each.
func Cut(samples []Sample, n int) [][]Sample {
	n = max(min(n, len(samples)), 1)
	parts := make([][]Sample, n)
	for i := range parts {
		parts[i] = samples[i*len(samples)/n : (i+1)*len(samples)/n]
	}
	return parts
}

// WriteOTLPFiles cuts samples into n runs (Cut) and writes each to an
// OTLP file of dir (made if missing), part-0000.otlp and on. It returns
// the files' paths.
func WriteOTLPFiles(t testing.TB, dir string, samples []Sample, ids map[string]string, n int) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i, part := range Cut(samples, n) {
		path := filepath.Join(dir, fmt.Sprintf("part-%04d.otlp", i))
		WriteOTLP(t, path, part, ids)
		paths = append(paths, path)
	}
	return paths
}

// WriteOTLPFrameType writes to path an OTLP profile of n samples of one
// stack: a frame at 0x1234 of frame type frameType ("cpython", "jvm"...:
// no native code), in no mapping.
func WriteOTLPFrameType(t testing.TB, path, frameType string, n int) {
	t.Helper()
	w := newOTLPWriter(nil)
	loc := appendVarintField(appendVarintField(nil, 2, 0x1234), 4, w.attr("profile.frame.type", frameType))
	w.locs = append(w.locs, loc)
	stack := w.stack(appendBytesField(nil, 1, protowire.AppendVarint(nil, 1)))
	for range n {
		w.samples = append(w.samples, appendBytesField(appendVarintField(nil, 1, stack), 5, protowire.AppendFixed64(nil, 1e18)))
	}
	w.period = 1e7
	if err := os.WriteFile(path, w.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
