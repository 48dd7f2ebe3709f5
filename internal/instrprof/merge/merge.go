// Package merge merges many instrumentation profiles (raw .profraw,
// indexed .profdata and text .proftext files) into one instrprof.Profile: files are read by a
// pool of workers, each folding its files into a private partial profile;
// the partials are then merged in a fixed order, so the result does not
// depend on the thread count or the input order, and memory grows with the
// number of distinct functions, not with the number of files.
package merge

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Input is one file to merge with its weight (≥1).
type Input struct {
	Path   string
	Weight uint64
	index  int // position among the inputs, for Origins
}

// Options control a merge.
type Options struct {
	Threads int
	// KeepGoing skips damaged files instead of failing (--failure-mode=all).
	KeepGoing bool
	// Correlation supplies records for correlated raws.
	Correlation *raw.Correlation
	// Lookup, when set, finds each raw's correlation by its binary id.
	Lookup *Lookup
	// MatchID, when set, keeps only raws holding this binary id.
	MatchID []byte
	// TraceLimits bound the temporal profile traces kept.
	TraceLimits instrprof.TraceLimits
	// Rename, when set, gives every record its new name
	// (llvm-profdata merge --remapping-file).
	Rename func(string) string
	// KeepVTableNames keeps the vtable names of raw and indexed inputs
	// (--keep-vtable-symbols).
	KeepVTableNames bool
}

// Skip is a file left out of the merge and why.
type Skip struct {
	Path   string
	Reason string
	Kind   SkipKind
}

// SkipKind classifies skipped files for the summary.
type SkipKind int

// Why a file was skipped.
const (
	SkipEmpty SkipKind = iota
	SkipOtherBinary
	SkipDamaged
)

// Result is the merged profile and what happened to every input.
type Result struct {
	Profile *instrprof.Profile
	Merged  int
	Records int
	Dropped int // records dropped for shape mismatches (KeepGoing)
	// Suspect counts the merged inputs with a counter above 2^56
	// (KeepGoing; each warned of in Warnings), which llvm-profdata merges
	// yet counts as failed for --failure-mode.
	Suspect int
	// RawVersions counts the merged raws by format version.
	RawVersions map[int]int
	Skipped     []Skip
	Warnings    []string
}

// Run merges inputs.
func Run(inputs []Input, opts Options) (*Result, error) {
	if opts.TraceLimits == (instrprof.TraceLimits{}) {
		opts.TraceLimits = instrprof.DefaultTraceLimits
	}
	threads := max(1, min(opts.Threads, len(inputs)))
	names := &raw.NameCache{}
	workers := make([]*worker, threads)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{opts: &opts, prof: instrprof.NewProfile(), reader: raw.Reader{Correlation: opts.Correlation, Names: names}}
		if opts.Lookup != nil {
			w.reader.Lookup = opts.Lookup.find
		}
		w.prof.TrackFirstValues = weighted(inputs)
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(inputs, jobs)
		}()
	}
	outcomes := make([]outcome, len(inputs))
	var failed atomic.Bool
	for i := range workers {
		workers[i].outcomes = outcomes
		workers[i].failed = &failed
	}
	for i := range inputs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return collect(workers, inputs, outcomes, opts)
}

// outcome is what happened to one input.
type outcome struct {
	err     error
	skip    *Skip
	records int
	traces  []instrprof.Trace // temporal profile traces, in the file's order
	// traceStream is how many traces the input's stream saw.
	traceStream uint64
	// suspect is why a merged input is suspect (a raw's counter above
	// 2^56), or nil.
	suspect error
	// rawVersion is a raw's format version; 0 for other inputs.
	rawVersion int
}

// weighted reports whether some input has a weight above 1: only then do
// value counts need llvm's first-value weighting tracked.
func weighted(inputs []Input) bool {
	for _, in := range inputs {
		if in.Weight > 1 {
			return true
		}
	}
	return false
}

// errSkipped marks inputs not read because another one failed.
var errSkipped = errors.New("not read: another input failed")

func collect(workers []*worker, inputs []Input, outcomes []outcome, opts Options) (*Result, error) {
	res := &Result{Profile: instrprof.NewProfile()}
	for i, o := range outcomes {
		switch {
		case o.err == errSkipped:
			continue
		case o.err != nil && !opts.KeepGoing:
			return nil, o.err
		case o.err != nil:
			res.Skipped = append(res.Skipped, Skip{Path: inputs[i].Path, Reason: o.err.Error(), Kind: SkipDamaged})
		case o.skip != nil:
			res.Skipped = append(res.Skipped, *o.skip)
		default:
			res.Merged++
			res.Records += o.records
			res.noteSuspect(o.suspect)
			res.noteRawVersion(o.rawVersion)
			res.Profile.AddTraces(o.traces, o.traceStream, opts.TraceLimits)
		}
	}
	for _, w := range workers {
		res.Profile.AddProfile(w.prof)
	}
	if opts.Lookup != nil {
		res.Warnings = append(res.Warnings, opts.Lookup.Warnings()...)
	}
	res.noteMismatches(res.Profile.Resolve())
	res.noteOverflows()
	return res, nil
}

// noteSuspect counts an input merged despite a warning, and warns.
func (r *Result) noteSuspect(err error) {
	if err != nil {
		r.Suspect++
		r.Warnings = append(r.Warnings, err.Error())
	}
}

// noteRawVersion counts a merged raw of format version v (0: no raw).
func (r *Result) noteRawVersion(v int) {
	if v == 0 {
		return
	}
	if r.RawVersions == nil {
		r.RawVersions = map[int]int{}
	}
	r.RawVersions[v]++
}

// noteMismatches words the records dropped for a shape mismatch as
// llvm-profdata does: it keeps the record read first, warns and goes on.
func (r *Result) noteMismatches(dropped []*instrprof.MismatchError) {
	hint := false
	for _, d := range dropped {
		if !d.CountersMerged {
			r.Dropped += d.Records
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %s: %s", d.At.File, d.Name, mismatchText[d.What]))
		hint = hint || d.What != "bitmap bytes"
	}
	if hint { // llvm gives no hint for bitmap sizes
		r.Warnings = append(r.Warnings, "Make sure that all profile data to be merged is generated from the same binary.")
	}
}

// mismatchText is llvm-profdata's wording of each mismatch.
var mismatchText = map[string]string{
	"counters":                          "function basic block count change detected (counter mismatch)",
	"counters (pseudo and real counts)": "function basic block count change detected (counter mismatch)",
	"bitmap bytes":                      "function bitmap size change detected (bitmap size mismatch)",
	"value sites":                       "function value site count change detected (counter mismatch)",
}

// noteOverflows warns of every function whose counts were clamped.
func (r *Result) noteOverflows() {
	for _, f := range r.Profile.Funcs() {
		if f.Overflowed {
			r.Warnings = append(r.Warnings, f.Name+": counter overflow")
		}
	}
}

// worker merges the files it takes into its own partial profile.
type worker struct {
	opts     *Options
	prof     *instrprof.Profile
	reader   raw.Reader
	outcomes []outcome
	// failed is set on the first error when not KeepGoing: the rest of the
	// files are then left alone.
	failed *atomic.Bool

	staged []staged
	// near holds, per record position, the record of prof the previous
	// raw's record there merged into: raws of one binary list their
	// functions in the same order, and the lookup is then skipped.
	near []*instrprof.Func
}

func (w *worker) run(inputs []Input, jobs <-chan int) {
	for i := range jobs {
		o := &w.outcomes[i]
		if w.failed.Load() {
			o.err = errSkipped
			continue
		}
		in := inputs[i]
		in.index = i
		o.skip, o.err = w.mergeFile(in, o)
		if o.err != nil && !w.opts.KeepGoing {
			w.failed.Store(true)
		}
	}
}

func (w *worker) mergeFile(in Input, o *outcome) (*Skip, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return &Skip{Path: in.Path, Reason: profformat.ErrEmpty.Error() + " (0 bytes: the process was killed before writing its profile?)", Kind: SkipEmpty}, nil
	}
	head := make([]byte, min(st.Size(), profformat.HeadSize))
	f.ReadAt(head, 0)
	switch profformat.Sniff(head) {
	case profformat.RawLE64, profformat.RawLE32, profformat.RawBE64, profformat.RawBE32:
		return w.mergeRaw(in, f, st.Size(), o)
	case profformat.Indexed:
		return nil, w.mergeIndexed(in, f, st.Size(), o)
	case profformat.InstrText:
		return nil, w.mergeText(in, f, o)
	}
	return nil, badMagic(in.Path, f)
}

// badMagic explains a file that is no instrumentation profile. One that
// starts like text is read as a text sample profile, whose error says on
// which line it is damaged.
func badMagic(path string, f *os.File) error {
	var head [16]byte
	n, _ := f.ReadAt(head[:], 0)
	if sampleprof.Detect(head[:n]) == sampleprof.FormatText {
		if _, err := sampleprof.ReadFile(path); err != nil {
			return fmt.Errorf("%w (read as a text sample profile: it is no instrumentation profile)", err)
		}
		return &instrprof.FormatError{File: path, Offset: 0, Msg: "a sample profile: it cannot be merged with instrumentation profiles"}
	}
	return &instrprof.FormatError{File: path, Offset: 0, Msg: "not a raw or indexed instrumentation profile (bad magic)"}
}

// staged is a record read from a file that is not yet known to be whole.
type staged struct {
	rec instrprof.Record
	ref uint64
	off int64
}

func (w *worker) mergeRaw(in Input, f *os.File, size int64, o *outcome) (*Skip, error) {
	// The file's records are staged and merged only once the whole file has
	// read cleanly, so a damaged file adds nothing.
	w.staged = w.staged[:0]
	info, err := w.reader.ReadFile(in.Path, f, size, w.stage)
	if err != nil {
		return nil, err
	}
	if info.LargeCounter != nil {
		// llvm-profdata fails the merge (--failure-mode=any) or merges
		// the file as it is and warns.
		if !w.opts.KeepGoing {
			return nil, info.LargeCounter
		}
		o.suspect = info.LargeCounter
	}
	if w.opts.MatchID != nil && !hasID(info.BinaryIDs, w.opts.MatchID) {
		return &Skip{Path: in.Path, Reason: "binary id " + idList(info.BinaryIDs) + ", not the binary's " + hex.EncodeToString(w.opts.MatchID), Kind: SkipOtherBinary}, nil
	}
	if len(w.near) < len(w.staged) {
		w.near = append(w.near, make([]*instrprof.Func, len(w.staged)-len(w.near))...)
	}
	for i := range w.staged {
		s := &w.staged[i]
		w.near[i] = w.add(&s.rec, s.ref, in, s.off, w.near[i])
	}
	w.note(info.Kind, info.BinaryIDs)
	w.keepVTableNames(info.VTableNames)
	if info.Trace != nil {
		// A raw's trace weighs its input's weight; an indexed input's
		// traces keep theirs (llvm-profdata does the same).
		o.traces = []instrprof.Trace{{Weight: max(in.Weight, 1), Refs: info.Trace}}
		o.traceStream = 1
	}
	o.records = info.Records
	o.rawVersion = info.Version
	return nil, nil
}

// stage keeps rec, whose slices stay the reader's until its next file.
func (w *worker) stage(rec *instrprof.Record, ref uint64, off int64) error {
	w.staged = append(w.staged, staged{rec: *rec, ref: ref, off: off})
	return nil
}

func (w *worker) mergeIndexed(in Input, f *os.File, size int64, o *outcome) error {
	// Staged like raws; the indexed reader allocates each record afresh.
	w.staged = w.staged[:0]
	info, err := indexed.ReadFile(in.Path, f, size, func(rec *instrprof.Record, off int64) error {
		w.staged = append(w.staged, staged{rec: *rec, off: off})
		return nil
	})
	if err != nil {
		return err
	}
	for i := range w.staged {
		s := &w.staged[i]
		w.add(&s.rec, 0, in, s.off, nil)
	}
	w.note(info.Kind, info.BinaryIDs)
	w.keepVTableNames(info.VTableNames)
	o.traces, o.traceStream = info.Traces, info.TraceStream
	o.records = info.Records
	return nil
}

func (w *worker) mergeText(in Input, f *os.File, o *outcome) error {
	// Staged like raws: a file with a bad line adds nothing.
	w.staged = w.staged[:0]
	info, err := text.Read(in.Path, f, func(rec *instrprof.Record, line int64) error {
		w.staged = append(w.staged, staged{rec: *rec, off: line})
		return nil
	})
	if err != nil {
		return err
	}
	for i := range w.staged {
		s := &w.staged[i]
		w.add(&s.rec, 0, in, s.off, nil)
	}
	w.note(info.Kind, nil)
	o.traces, o.traceStream = info.Traces, info.TraceStream
	o.records = info.Records
	return nil
}

// add merges rec into the worker's profile; near is what add returned for
// the record at the same position of the previous raw (see
// Profile.AddNear), and the result is kept for the next.
func (w *worker) add(rec *instrprof.Record, ref uint64, in Input, off int64, near *instrprof.Func) *instrprof.Func {
	if w.opts.Rename != nil {
		if name := w.opts.Rename(rec.Name); name != rec.Name {
			rec.Name, ref = name, 0
		}
	}
	return w.prof.AddNear(rec, ref, max(in.Weight, 1), instrprof.Origin{File: in.Path, Input: in.index, Offset: off}, near)
}

func (w *worker) note(kind instrprof.Kind, ids [][]byte) {
	w.prof.Kind |= kind &^ instrprof.KindDebugCorrelate
	for _, id := range ids {
		w.prof.BinaryIDs[string(id)] = true
	}
}

// keepVTableNames keeps an input's vtable names when asked to.
func (w *worker) keepVTableNames(names []string) {
	if w.opts.KeepVTableNames {
		w.prof.AddVTableNames(names)
	}
}

func hasID(ids [][]byte, want []byte) bool {
	for _, id := range ids {
		if bytes.Equal(id, want) {
			return true
		}
	}
	return false
}

func idList(ids [][]byte) string {
	if len(ids) == 0 {
		return "(none)"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = hex.EncodeToString(id)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// Summary is the one-line account of a merge.
func (r *Result) Summary() string {
	var empty, other, damaged int
	for _, s := range r.Skipped {
		switch s.Kind {
		case SkipEmpty:
			empty++
		case SkipOtherBinary:
			other++
		default:
			damaged++
		}
	}
	s := fmt.Sprintf("merged %d files (%d records, %d functions); skipped %d (%d empty, %d of another binary, %d damaged)",
		r.Merged, r.Records, r.Profile.Len(), len(r.Skipped), empty, other, damaged)
	if r.Dropped > 0 {
		s += fmt.Sprintf("; dropped %d records whose counters did not match", r.Dropped)
	}
	return s
}
