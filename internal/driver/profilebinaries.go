package driver

import (
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/contprof"
)

// Without --binary, the binaries of --profile files are their sampled
// mappings' with a build id, found as perf.data's recorded binaries are
// (findRecorded); a mapping with only an htlhash (a stripped binary the
// OpenTelemetry profiler saw) is found among the files of --binary-dir by
// theirs.

// profiledBinaries reads the --profile files, one at a time, for the
// mappings their samples have frames in that carry a build id: one
// recorded binary per build id, with its leaf samples.
func profiledBinaries(p *plan) (recording, error) {
	byID := map[string]*recordedBinary{}
	for _, path := range p.src.profiles {
		prof, err := contprof.ReadFile(path, contprof.Options{SampleType: p.src.sampleType})
		if err != nil {
			return recording{}, err
		}
		noteProfiled(prof, byID)
	}
	var out []recordedBinary
	for _, r := range byID {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b recordedBinary) int {
		return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.id(), b.id()))
	})
	return recording{binaries: out}, nil
}

// noteProfiled adds the mappings of prof's samples to byID.
func noteProfiled(prof *contprof.Profile, byID map[string]*recordedBinary) {
	for _, s := range prof.Samples {
		for i, f := range s.Frames {
			m := &prof.Mappings[f.Mapping]
			r := recordedOf(m, byID)
			if r == nil {
				continue
			}
			if i == 0 {
				r.leafSamples += s.Weight
			}
		}
	}
}

// recordedOf is the recorded binary of mapping m, made on first use; nil
// for the kernel's and a mapping without a GNU build id or htlhash.
func recordedOf(m *contprof.Mapping, byID map[string]*recordedBinary) *recordedBinary {
	r := recordedBinary{path: m.Path, buildID: m.BuildIDs.GNU, htlhash: m.BuildIDs.HTLHash}
	if m.Kernel || strings.HasPrefix(m.Path, "[") || r.id() == "" {
		return nil
	}
	if old, ok := byID[r.id()]; ok {
		return old
	}
	byID[r.id()] = &r
	return &r
}

// id is the build id a recorded binary is found by: GNU, else htlhash.
func (r recordedBinary) id() string { return cmp.Or(r.buildID, r.htlhash) }

// htlhashIndex finds files by htlhash: those of the --binary-dir
// directories, each hashed once per run on first use.
type htlhashIndex struct {
	dirs  []string
	files map[string]string // by htlhash; nil until built
}

// find returns the file of --binary-dir whose htlhash is h.
func (x *htlhashIndex) find(h string) (string, bool) {
	if x.files == nil {
		x.files = map[string]string{}
		for _, d := range x.dirs {
			x.add(d)
		}
	}
	f, ok := x.files[h]
	return f, ok
}

// add hashes the regular files under dir (the first of a hash is kept).
func (x *htlhashIndex) add(dir string) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if h := fileHTLHash(path); h != "-" && x.files[h] == "" {
			x.files[h] = path
		}
		return nil
	})
}

// findByHTLHash finds a recorded binary of an htlhash alone in
// --binary-dir, or says on one line why not.
func findByHTLHash(p *plan, r recordedBinary) (binaryRef, bool) {
	if p.htlhashes == nil {
		p.htlhashes = &htlhashIndex{dirs: p.BinaryDirs}
	}
	file, ok := p.htlhashes.find(r.htlhash)
	if !ok {
		warnf(p, "%s (htlhash %s): no file of --binary-dir %s has that htlhash", r.path, r.htlhash, strings.Join(p.BinaryDirs, ", "))
		return binaryRef{}, false
	}
	return binaryRef{name: r.path, file: file}, true
}

// warnf writes a warning line of the run.
func warnf(p *plan, format string, args ...any) {
	fmt.Fprintf(p.Stderr, "profgen: warning: "+format+"\n", args...)
}
