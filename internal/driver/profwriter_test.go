package driver

import (
	"bufio"
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"google.golang.org/protobuf/encoding/protowire"
)

// A test-only writer of the profiles continuous profilers write, from a
// perf recording: it parses perf script's text itself (processes'
// mappings from the mmap, fork and exec events; samples' call chains as
// file offsets in their DSOs) and shares no address code with package
// contprof. pprof as perf_to_profile writes it: runtime addresses, perf's
// mmap start, limit and offset, build ids, every frame but the leaf at its
// return address − 1. OTLP as the OpenTelemetry eBPF profiler writes it:
// ELF virtual addresses (by the file's program headers), callers − 1,
// mappings' ranges in the same space, GNU build id attributes, kernel
// frames of frame type kernel in no mapping, a stack table, and each
// sample as timestamps.

// scriptMap is one executable mapping of a process, as perf recorded it.
type scriptMap struct {
	start, size, pgoff uint64
	path               string
}

// scriptFrame is a call-chain frame as perf script prints it: a file
// offset in dso, or a kernel or unknown address.
type scriptFrame struct {
	addr uint64
	dso  string
}

// scriptSample is a sample: its process's mappings then, its period and
// its call chain, leaf first.
type scriptSample struct {
	maps   []scriptMap
	timeNS uint64
	period uint64
	frames []scriptFrame
}

var (
	mmapLine   = regexp.MustCompile(`PERF_RECORD_MMAP2? (-?\d+)/\d+: \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (0x[0-9a-f]+|\d+)[^\]]*\]: \S+ (.+)$`)
	forkLine   = regexp.MustCompile(`PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)`)
	execLine   = regexp.MustCompile(`^\s*(\d+)\s+[\d.]+:\s+PERF_RECORD_COMM exec:`)
	headerLine = regexp.MustCompile(`^\s*(\d+)\s+(\d+)\.(\d{9}):\s+(\d+)\s*$`)
	frameLine  = regexp.MustCompile(`^\s+([0-9a-f]+) .* \((.*)\)$`)
)

// readScript runs perf script on data and reads its samples.
func readScript(t *testing.T, data string) []scriptSample {
	t.Helper()
	out, err := exec.Command("perf", "script", "-i", data, "-F", "pid,time,period,ip,sym,dso", "--ns",
		"--show-mmap-events", "--show-task-events").Output()
	if err != nil {
		t.Fatalf("perf script: %v", err)
	}
	maps := map[int][]scriptMap{}
	var samples []scriptSample
	var cur *scriptSample
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := frameLine.FindStringSubmatch(line); m != nil && cur != nil {
			cur.frames = append(cur.frames, scriptFrame{hexU(t, m[1]), m[2]})
			continue
		}
		cur = nil
		switch m := headerLine.FindStringSubmatch(line); {
		case m != nil:
			pid := atoi(t, m[1])
			ns := uint64(atoi(t, m[2]))*1e9 + uint64(atoi(t, m[3]))
			samples = append(samples, scriptSample{maps: append(append([]scriptMap(nil), maps[-1]...), maps[pid]...),
				timeNS: ns, period: uint64(atoi(t, m[4]))})
			cur = &samples[len(samples)-1]
		default:
			scriptEvent(t, line, maps)
		}
	}
	return samples
}

// scriptEvent updates the processes' mappings by an event line.
func scriptEvent(t *testing.T, line string, maps map[int][]scriptMap) {
	if m := mmapLine.FindStringSubmatch(line); m != nil {
		pid := atoi(t, m[1])
		pgoff, _ := strconv.ParseUint(m[4], 0, 64)
		maps[pid] = append(maps[pid], scriptMap{hexU(t, m[2]), hexU(t, m[3]), pgoff, m[5]})
	} else if m := forkLine.FindStringSubmatch(line); m != nil {
		maps[atoi(t, m[1])] = append([]scriptMap(nil), maps[atoi(t, m[2])]...)
	} else if m := execLine.FindStringSubmatch(line); m != nil {
		delete(maps, atoi(t, m[1]))
	}
}

func hexU(t *testing.T, s string) uint64 {
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func atoi(t *testing.T, s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// isKernelDSO reports whether perf names the kernel.
func isKernelDSO(dso string) bool { return strings.HasPrefix(dso, "[kernel") }

// mapOf is the mapping of a frame: the kernel's, or the last of the
// process's of dso that holds its file offset; nil for none.
func (s *scriptSample) mapOf(f scriptFrame) *scriptMap {
	for i := len(s.maps) - 1; i >= 0; i-- {
		m := &s.maps[i]
		if isKernelDSO(f.dso) && isKernelDSO(m.path) {
			return m
		}
		if m.path == f.dso && f.addr >= m.pgoff && f.addr < m.pgoff+m.size {
			return m
		}
	}
	return nil
}

// buildIDs are perf's build ids of the recording's DSOs, by path.
func buildIDs(t *testing.T, data string) map[string]string {
	out, err := exec.Command("perf", "buildid-list", "-i", data).Output()
	if err != nil {
		t.Fatalf("perf buildid-list: %v", err)
	}
	ids := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if id, path, ok := strings.Cut(l, " "); ok {
			ids[path] = id
		}
	}
	return ids
}

// writeScriptPprof writes samples as perf_to_profile's pprof, one file
// per group of samples (groups[i] are the indexes of file i's).
func writeScriptPprof(t *testing.T, path string, samples []scriptSample, ids map[string]string) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu-clock_sample", Unit: "count"}, {Type: "cpu-clock_event", Unit: "count"}},
	}
	maps := map[scriptMap]*profile.Mapping{}
	locs := map[[2]uint64]*profile.Location{}
	for _, s := range samples {
		ps := &profile.Sample{Value: []int64{1, int64(s.period)}}
		for i, f := range s.frames {
			ps.Location = append(ps.Location, pprofLocation(p, maps, locs, &s, f, i > 0))
		}
		p.Sample = append(p.Sample, ps)
	}
	for sm, m := range maps {
		m.BuildID = ids[strings.TrimSuffix(sm.path, "_text")]
	}
	if len(samples) > 0 {
		p.TimeNanos = int64(samples[0].timeNS)
		p.DurationNanos = int64(samples[len(samples)-1].timeNS - samples[0].timeNS)
	}
	writeProfileFile(t, path, p)
}

// pprofLocation is the location of frame f at its runtime address
// (− 1 for a caller), in its mapping, made on first use.
func pprofLocation(p *profile.Profile, maps map[scriptMap]*profile.Mapping, locs map[[2]uint64]*profile.Location,
	s *scriptSample, f scriptFrame, caller bool) *profile.Location {
	sm := s.mapOf(f)
	addr, mid := f.addr, uint64(0)
	var m *profile.Mapping
	if sm != nil {
		m = maps[*sm]
		if m == nil {
			m = &profile.Mapping{ID: uint64(len(p.Mapping) + 1), Start: sm.start, Limit: sm.start + sm.size, Offset: sm.pgoff, File: sm.path}
			maps[*sm] = m
			p.Mapping = append(p.Mapping, m)
		}
		mid = m.ID
		if !isKernelDSO(f.dso) {
			addr = f.addr - sm.pgoff + sm.start
		}
	}
	if caller && addr > 0 {
		addr--
	}
	key := [2]uint64{mid, addr}
	if locs[key] == nil {
		locs[key] = &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Address: addr}
		p.Location = append(p.Location, locs[key])
	}
	return locs[key]
}

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
func (w *otlpWriter) location(s *scriptSample, f scriptFrame, caller bool) uint64 {
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
func (w *otlpWriter) add(s *scriptSample) {
	var locs []byte
	prevKernel := false
	for i, f := range s.frames {
		// The user frame where the kernel was entered is at its
		// instruction, as the leaf.
		caller := i > 0 && !(prevKernel && !isKernelDSO(f.dso))
		prevKernel = isKernelDSO(f.dso)
		locs = protowire.AppendVarint(locs, w.location(s, f, caller))
	}
	stack := appendBytesField(nil, 1, locs)
	si, ok := w.stackIdx[string(stack)]
	if !ok {
		si = uint64(len(w.stacks))
		w.stackIdx[string(stack)] = si
		w.stacks = append(w.stacks, stack)
	}
	b := appendVarintField(nil, 1, si)
	b = appendBytesField(b, 5, protowire.AppendFixed64(nil, s.timeNS))
	w.samples = append(w.samples, b)
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

// writeScriptOTLP writes samples as the OpenTelemetry eBPF profiler's
// OTLP profile.
func writeScriptOTLP(t *testing.T, path string, samples []scriptSample, ids map[string]string) {
	w := newOTLPWriter(ids)
	for i := range samples {
		w.add(&samples[i])
		w.period = samples[i].period
	}
	if err := os.WriteFile(path, w.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
