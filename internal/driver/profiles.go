package driver

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/contprof"
	"github.com/profgen/profgen/internal/perfsyms"
	"github.com/profgen/profgen/internal/record"
)

// Continuous profilers' profiles as input (--profile, package contprof):
// each file is decoded in its turn, its mappings matched to the binaries
// (profilematch.go), and its call stacks handed to the one record loop
// (consume) as perf's call chains, the previous file's dropped first: the
// memory a run takes grows with the largest file, not with their number.

// profileFiles lists the files of --profile: each file given, and every
// regular file of each directory given, sorted by name.
func profileFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("--profile: %w", err)
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		inDir, err := regularFiles(a)
		if err != nil {
			return nil, err
		}
		files = append(files, inDir...)
	}
	return files, nil
}

// regularFiles lists the regular files of dir, sorted by name; a
// directory without any is refused.
func regularFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, usagef("--profile %s: the directory holds no file", dir)
	}
	return files, nil
}

// ProfileCounts is what the frames and samples of continuous profilers'
// profiles (Options.Profiles) went to beyond the call-stack aggregation:
// frames are counted once for each distinct stack of a file that holds
// them, samples by weight.
type ProfileCounts struct {
	Files        int
	KernelFrames uint64 // kept: folded for Go's pprof, dropped for LLVM profiles
	// Interpreted counts, by frame type (cpython, jvm, v8js, …), the
	// interpreter and JIT frames left out.
	Interpreted map[string]uint64
	NoMapping   uint64 // frames in no mapping, kept by their address as perf's [unknown] frames
	NoAddress   uint64 // frames with no address (names only): left out, or in no mapping kept as perf's [unknown] at 0
	Outside     uint64 // frames outside their mapping's range, left out
	// OtherBuild counts the frames of mappings whose build id differs from
	// that of the binary of their name: another build's code, kept apart.
	OtherBuild uint64
	// Unplaced counts the frames at ELF virtual addresses (pprof's fake
	// mappings) in no binary's executable segments, left out.
	Unplaced uint64
	// NoFrame is the weight of the samples left with no native frame.
	NoFrame uint64
	// OtherTypes counts the OTLP profiles of other sample types, skipped.
	OtherTypes int
}

// add counts what p's decoding left out.
func (c *ProfileCounts) add(p *contprof.Profile) {
	st := &p.Stats
	c.Files++
	c.KernelFrames += st.KernelFrames
	c.NoMapping += st.NoMapping
	c.NoAddress += st.NoAddress
	c.Outside += st.Outside
	c.NoFrame += st.Empty
	c.OtherTypes += st.OtherTypes
	if c.Interpreted == nil {
		c.Interpreted = map[string]uint64{}
	}
	for k, n := range st.Interpreted {
		c.Interpreted[k] += n
	}
}

// profileRecords is the record.Source of the --profile files: their
// samples as perf's call-chain samples, one file decoded at a time.
type profileRecords struct {
	files  []string
	opts   contprof.Options
	match  *mappingMatcher
	next   int // the next file to read
	prof   *contprof.Profile
	cur    record.Source // prof's records
	name   string        // the file being read
	line   int           // the record of prof last counted (keep)
	err    error
	counts ProfileCounts
	// ids are the GNU build ids of the mappings read, by path (the
	// kernel's as perf names it), which names finds the symbols of the
	// DSOs outside the binaries by, as perf's build-id table for a
	// recording (perfsyms). It grows as files are read, on the scan's
	// goroutine, which alone asks names for them then.
	ids   map[string]string
	names *perfsyms.Namer
}

func newProfileRecords(p *plan, bins *binaries) *profileRecords {
	ids := map[string]string{}
	return &profileRecords{files: p.src.profiles, opts: contprof.Options{SampleType: p.src.sampleType},
		match: newMappingMatcher(bins), ids: ids, names: perfsyms.New(ids)}
}

// Next moves to the next sample with a native frame left, reading the
// next file when one ends.
func (r *profileRecords) Next() bool {
	for {
		if r.cur != nil && r.cur.Next() {
			if r.keep() {
				return true
			}
			continue
		}
		if r.err != nil || r.next >= len(r.files) {
			r.prof, r.cur = nil, nil
			return false
		}
		r.load(r.files[r.next])
		r.next++
	}
}

// keep counts the record's frames of other builds, and reports whether
// it has a frame left.
func (r *profileRecords) keep() bool {
	rec := r.cur.Record()
	if rec.Line != r.line { // a Sample may come as two records (contprof.Profile.Records)
		r.line = rec.Line
		r.counts.OtherBuild += r.match.otherBuildFrames(&r.prof.Samples[rec.Line-1])
	}
	if len(rec.Sample.Frames) == 0 {
		r.counts.NoFrame += rec.Sample.Count
		return false
	}
	return true
}

// load decodes the file at path, the previous one dropped.
func (r *profileRecords) load(path string) {
	r.prof, r.cur = nil, nil
	prof, err := contprof.ReadFile(path, r.opts)
	if err != nil {
		r.err = err
		return
	}
	r.name, r.line = path, 0
	r.counts.add(prof)
	r.match.place(prof)
	r.noteBuildIDs(prof)
	r.prof, r.cur = prof, prof.Records(r.match.vaddrOffset)
}

// noteBuildIDs adds the GNU build ids of prof's mappings to r.ids (the
// first one of a path is kept).
func (r *profileRecords) noteBuildIDs(prof *contprof.Profile) {
	for _, m := range prof.Mappings {
		path := m.Path
		if m.Kernel {
			path = aggregate.KernelDSO
		}
		if id := m.BuildIDs.GNU; id != "" && r.ids[path] == "" {
			r.ids[path] = id
		}
	}
}

func (r *profileRecords) Record() *record.Record { return r.cur.Record() }

func (r *profileRecords) Err() error { return r.err }

func (r *profileRecords) Stats() record.Stats { return record.Stats{} }

// Name is the file being read, for the record loop's messages.
func (r *profileRecords) Name() string { return r.name }

// Counts are what the files' frames and samples went to, outside the
// aggregation.
func (r *profileRecords) Counts() ProfileCounts {
	c := r.counts
	c.Unplaced = r.match.unplaced
	return c
}
