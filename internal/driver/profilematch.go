package driver

import (
	"os"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/contprof"
)

// A profile's mapping is the code of a binary of the run when their build
// ids agree (GNU, else Go's), else when the mapping's htlhash is the
// binary's file's, else by path or base name as perf's mappings are
// (aggregate.Stacks.binaryOf). The call-stack aggregation places frames by
// their DSO's path, so a mapping matched by id takes its binary's path; one
// whose id differs from that of the binary of its name takes a path of its
// own, and its frames stay out of that binary.

// mappingMatcher matches the mappings of the profiles read to the run's
// binaries. The htlhash of a binary's file is computed once per run, when a
// mapping first asks for it.
type mappingMatcher struct {
	bins  []*binary.File
	named []aggregate.StackBinary // the same, matched by name
	files []string                // the file each binary was opened from
	goIDs []string                // their Go build ids
	// htl holds the htlhash of each binary's file once computed; "-"
	// when it could not be.
	htl []string
	// otherBuild marks the current profile's mappings of another build
	// than the binary of their name; vaBinary, its mappings of ELF virtual
	// addresses by their binary (-1: none).
	otherBuild []bool
	vaBinary   map[*contprof.Mapping]int
	unplaced   uint64 // frames at virtual addresses in no binary's code
}

func newMappingMatcher(bins *binaries) *mappingMatcher {
	mt := &mappingMatcher{bins: bins.files, named: bins.stackBinaries(), files: bins.filePaths,
		goIDs: make([]string, len(bins.files)), htl: make([]string, len(bins.files))}
	for i, f := range bins.files {
		mt.goIDs[i] = f.GoBuildID()
	}
	return mt
}

// place gives each mapping of prof the path of the binary it matches.
func (mt *mappingMatcher) place(prof *contprof.Profile) {
	mt.otherBuild = make([]bool, len(prof.Mappings))
	mt.vaBinary = map[*contprof.Mapping]int{}
	for i := range prof.Mappings {
		m := &prof.Mappings[i]
		if !m.Kernel && !m.Unknown {
			mt.otherBuild[i] = mt.rename(m)
		}
	}
}

// rename gives m the path of the binary it matches, by build id or else
// by name, so that the binary's frames are one object whatever the path
// each profile knows it by; one of another build than the binary of its
// name gets a path of its own (and rename reports it).
func (mt *mappingMatcher) rename(m *contprof.Mapping) bool {
	for i := range mt.bins {
		if match, _ := mt.sameBuild(m, i); match {
			m.Path = mt.bins[i].Path()
			return false
		}
	}
	i := aggregate.BinaryNamed(mt.named, m.Path)
	if i < 0 {
		return false
	}
	if _, conflict := mt.sameBuild(m, i); conflict {
		m.Path += " (build id " + firstID(m.BuildIDs) + ")"
		return true
	}
	m.Path = mt.bins[i].Path()
	return false
}

// sameBuild compares the build ids of m and of binary i: match when one
// agrees, conflict when the GNU or Go ids both have differ. htlhashes
// match alone: a stripped copy of a binary has another.
func (mt *mappingMatcher) sameBuild(m *contprof.Mapping, i int) (match, conflict bool) {
	ids, f := m.BuildIDs, mt.bins[i]
	if gnu := f.BuildIDHex(); ids.GNU != "" && gnu != "" {
		return ids.GNU == gnu, ids.GNU != gnu
	}
	if goID := mt.goIDs[i]; ids.Go != "" && goID != "" {
		return ids.Go == goID, ids.Go != goID
	}
	return ids.HTLHash != "" && mt.htlhash(i) == ids.HTLHash, false
}

// htlhash is the htlhash of binary i's file, computed on first use.
func (mt *mappingMatcher) htlhash(i int) string {
	if mt.htl[i] == "" && i < len(mt.files) {
		mt.htl[i] = fileHTLHash(mt.files[i])
	}
	return mt.htl[i]
}

// fileHTLHash is the htlhash of the file at path, "-" when it cannot be
// read.
func fileHTLHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "-"
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "-"
	}
	h, err := contprof.HTLHash(f, st.Size())
	if err != nil {
		return "-"
	}
	return h
}

// firstID is the first build id of ids: GNU, Go, htlhash.
func firstID(ids contprof.BuildIDs) string {
	for _, id := range []string{ids.GNU, ids.Go, ids.HTLHash} {
		if id != "" {
			return id
		}
	}
	return ""
}

// otherBuildFrames counts the frames of s in mappings of other builds.
func (mt *mappingMatcher) otherBuildFrames(s *contprof.Sample) uint64 {
	n := uint64(0)
	for _, f := range s.Frames {
		if mt.otherBuild[f.Mapping] {
			n++
		}
	}
	return n
}

// vaddrOffset turns an ELF virtual address of a mapping's binary into a
// file offset by the binary's program headers (contprof.VaddrOffset):
// the frames of a mapping of no binary, or outside its executable
// segments, are left out and counted.
func (mt *mappingMatcher) vaddrOffset(m *contprof.Mapping, vaddr uint64) (uint64, bool) {
	i, ok := mt.vaBinary[m]
	if !ok {
		i = aggregate.BinaryNamed(mt.named, m.Path)
		mt.vaBinary[m] = i
	}
	if i < 0 {
		mt.unplaced++
		return 0, false
	}
	off, found := mt.bins[i].OffsetOfVaddr(vaddr)
	if !found {
		mt.unplaced++
	}
	return off, found
}
