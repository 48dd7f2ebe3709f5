package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/locate"
	"github.com/profgen/profgen/internal/perfdata"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// Without --binary, the binaries are those the recording sampled, found
// by the build ids perf recorded for them (locate): each is opened as
// --binary would open the file, known by the path perf recorded, so that
// it matches its mappings as a --binary of that path does.

// binaryRef is a binary to open: the path it is known by, the file that
// holds it and, for one found by its build id, how to find its DWARF when
// the file has none.
type binaryRef struct {
	name, file, debug string
	buildID           string
	findDebug         func() (string, error)
}

// recordedBinary is a DSO the recording sampled, as perf recorded it.
type recordedBinary struct {
	path, buildID string
	htlhash       string // of a profile's mapping with no GNU build id (profilebinaries.go)
	leafSamples   uint64 // samples whose leaf is in it, when the input was read for them
}

// recording is what the input says of the binaries it sampled.
type recording struct {
	binaries []recordedBinary
	cmdline  []string // perf record's command line (perf.data)
	execs    []string // the commands the recorded processes exec'd (COMM exec records), in order
}

// binaryRefs lists the binaries to open: the --binary files, or those the
// recording sampled, found by their build ids. The second list holds the
// binaries not found, each said on one line.
func binaryRefs(ctx context.Context, run *plan) ([]binaryRef, []recordedBinary, error) {
	if len(run.Binaries) > 0 {
		refs := make([]binaryRef, len(run.Binaries))
		for i, p := range run.Binaries {
			refs[i] = binaryRef{name: p, file: p, debug: run.DebugBinary}
		}
		return refs, nil, nil
	}
	rec, err := sampledBinaries(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	if len(rec.binaries) > 1 && run.namesOneFile() != nil {
		return findProgram(ctx, run, rec)
	}
	return findRecorded(ctx, run, rec.binaries)
}

// findRecorded finds each recorded binary in --binary-dir (or perf's
// cache) and on the debuginfod servers.
func findRecorded(ctx context.Context, p *plan, recorded []recordedBinary) ([]binaryRef, []recordedBinary, error) {
	finder := p.binaryFinder()
	var refs []binaryRef
	var missing []recordedBinary
	for _, r := range recorded {
		ref, found := findOne(ctx, p, finder, r)
		if !found {
			missing = append(missing, r)
			continue
		}
		refs = append(refs, ref)
	}
	if len(refs) == 0 {
		return nil, nil, noneFound(p, finder, len(recorded))
	}
	return refs, missing, nil
}

// findOne finds a recorded binary, or says on one line why it is not found.
func findOne(ctx context.Context, p *plan, finder BinaryFinder, r recordedBinary) (binaryRef, bool) {
	if r.buildID == "" {
		return findByHTLHash(p, r)
	}
	file, err := finder.Executable(ctx, r.buildID)
	if err != nil && r.htlhash != "" {
		return findByHTLHash(p, r)
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "profgen: warning: %s (build id %s): %v\n", r.path, r.buildID, notFoundReason(err))
		return binaryRef{}, false
	}
	return binaryRef{name: r.path, file: file, buildID: r.buildID, findDebug: func() (string, error) {
		return finder.Debuginfo(ctx, r.buildID)
	}}, true
}

// noneFound is the error of a run that found none of the n binaries it
// looked for.
func noneFound(p *plan, finder BinaryFinder, n int) error {
	if n == 0 && p.src.kind == fromProfiles {
		return fmt.Errorf("%s: %w: no sampled mapping of the profiles carries a GNU build id or htlhash: give --binary", p.src.name(), ErrNoSamples)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w: the input records no build id of a sampled binary (perf script prints them for perf record --buildid-mmap recordings only): give --binary",
			p.src.name(), ErrNoSamples)
	}
	return fmt.Errorf("%s: %w: none of the %d binaries sampled was found by its build id in %s (give --binary or --binary-dir)",
		p.src.name(), ErrNoSamples, n, finder.Places())
}

// notFoundReason is err without the build id the line already names.
func notFoundReason(err error) error {
	if errors.Is(err, locate.ErrNotFound) {
		_, after, ok := strings.Cut(err.Error(), ": ")
		if ok {
			return errors.New(after)
		}
	}
	return err
}

// sampledBinaries lists the DSOs the recording sampled that have a build
// id, by path. perf record's build-id table (the BUILD_ID feature) holds
// the DSOs with samples; when the MMAP2 records carry the build ids
// instead (perf record --buildid-mmap), for perf script text, and when
// one of several binaries is to be chosen by its samples (namesOneFile),
// the input is read once first to tell which mapped DSOs have samples,
// and how many.
func sampledBinaries(ctx context.Context, p *plan) (recording, error) {
	if p.src.kind == fromProfiles {
		return profiledBinaries(p)
	}
	if p.src.kind != fromPerfData {
		if p.src.path == "-" {
			return recording{}, usagef("--binary is required with standard input: the binaries are found by build ids read from the input first")
		}
		f, err := os.Open(p.src.path)
		if err != nil {
			return recording{}, err
		}
		defer f.Close()
		return scanSampled(perfscript.NewScanner(f, p.src.path), p.src.path, p.PIDs, nil)
	}
	c, err := perfdata.ReadContent(p.src.path)
	if err != nil {
		return recording{}, err
	}
	n, err := perfdata.OpenNative(p.src.path, c)
	if err != nil {
		return recording{}, err
	}
	defer n.Close()
	table := n.BuildIDs()
	if listed := withBuildIDs(table, nil, nil); !n.MmapBuildIDs() && len(listed) > 0 && (len(listed) == 1 || p.namesOneFile() == nil) {
		return recording{binaries: listed, cmdline: n.Cmdline()}, nil
	}
	rec, err := scanSampled(n, p.src.path, p.PIDs, table)
	rec.cmdline = n.Cmdline() // in pipe mode, a record read on the way
	return rec, err
}

// scanSampled reads the records of src (named name), notes the build ids
// the MMAP2 records carry (added to ids) and the DSOs that samples fall
// in, and returns those with a build id.
func scanSampled(src record.Source, name string, pids []int32, ids map[string]string) (recording, error) {
	if ids == nil {
		ids = map[string]string{}
	}
	s := &sampledDSOs{table: addrspace.New(addrspace.Binary{}, pids), ids: ids, sampled: map[string]bool{}, leaves: map[string]uint64{}}
	if err := consume(src, name, s); err != nil {
		return recording{}, err
	}
	return recording{binaries: withBuildIDs(ids, s.sampled, s.leaves), execs: s.execs}, nil
}

// sampledDSOs is the sink of the pre-pass that finds the sampled DSOs.
type sampledDSOs struct {
	table   *addrspace.Table
	ids     map[string]string
	sampled map[string]bool
	leaves  map[string]uint64 // samples by the DSO of their leaf
	execs   []string
}

func (s *sampledDSOs) event(rec *record.Record) {
	s.table.Update(rec)
	if id := rec.Mmap.BuildID; rec.Kind == record.KindMmap && id != "" && s.ids[rec.Mmap.Path] == "" {
		s.ids[rec.Mmap.Path] = id
	}
	if rec.Kind == record.KindComm && rec.Exec && (!rec.HasPID || s.table.Selected(rec.PID)) && !slices.Contains(s.execs, rec.Comm) {
		s.execs = append(s.execs, rec.Comm)
	}
}

func (s *sampledDSOs) sample(rec *record.Record) error {
	if !rec.HasPID || s.table.Selected(rec.PID) {
		noteSampled(rec, s.table, s.sampled)
		s.leaves[leafDSO(rec, s.table)] += max(rec.Sample.Count, 1)
	}
	return nil
}

// noteSampled adds the DSOs of a sample's frames to sampled: those perf
// named, and the mapping of its leaf and of its newest branch.
func noteSampled(rec *record.Record, table *addrspace.Table, sampled map[string]bool) {
	s := &rec.Sample
	sampled[s.IPDSO] = true
	for _, f := range s.Frames {
		sampled[f.DSO] = true
	}
	if !rec.HasPID {
		return
	}
	addrs := make([]uint64, 0, 3)
	if leaf, absolute, ok := s.Leaf(); ok && absolute {
		addrs = append(addrs, leaf)
	}
	if len(s.Branches) > 0 {
		addrs = append(addrs, s.Branches[0].From, s.Branches[0].To)
	}
	for _, a := range addrs {
		if m, ok := table.Lookup(rec.PID, a); ok {
			sampled[m.Path] = true
		}
	}
}

// leafDSO is the DSO a sample's leaf is in: the one perf named for its
// first frame or IP, else the mapping of its leaf address or of its
// newest branch's target; "" when none is known.
func leafDSO(rec *record.Record, table *addrspace.Table) string {
	s := &rec.Sample
	switch {
	case len(s.Frames) > 0 && s.Frames[0].DSO != "":
		return s.Frames[0].DSO
	case len(s.Frames) == 0 && s.IPDSO != "":
		return s.IPDSO
	case !rec.HasPID:
		return ""
	}
	addr, absolute, ok := s.Leaf()
	if (!ok || !absolute) && len(s.Branches) > 0 {
		addr, absolute, ok = s.Branches[0].To, true, true
	}
	if m, found := table.Lookup(rec.PID, addr); ok && absolute && found {
		return m.Path
	}
	return ""
}

// withBuildIDs lists the DSOs of ids that are sampled (all when sampled is
// nil), by path, with their leaf samples, leaving out perf's pseudo-DSOs
// ([kernel.kallsyms], [vdso]...): binaries of user space.
func withBuildIDs(ids map[string]string, sampled map[string]bool, leaves map[string]uint64) []recordedBinary {
	var out []recordedBinary
	for path, id := range ids {
		if path == "" || strings.HasPrefix(path, "[") || id == "" || (sampled != nil && !sampled[path]) {
			continue
		}
		out = append(out, recordedBinary{path: path, buildID: id, leafSamples: leaves[path]})
	}
	slices.SortFunc(out, func(a, b recordedBinary) int { return strings.Compare(a.path, b.path) })
	return out
}
