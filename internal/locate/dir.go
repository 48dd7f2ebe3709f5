package locate

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/profgen/profgen/internal/binary"
)

// inDir returns the file of dir with build id id, or "": perf's cache
// entry (DIR/.build-id/xx/rest, a link to the directory holding elf, or
// to the file itself), a file or directory named by the build id (a
// directory as debuginfod's cache holds them), or any ELF file directly
// in dir with that build id.
func (f *Finder) inDir(dir, id string) string {
	link := buildIDLink(dir, id)
	named := filepath.Join(dir, id)
	for _, p := range []string{filepath.Join(link, "elf"), link, named, filepath.Join(named, "executable"), filepath.Join(named, "elf")} {
		if hasBuildID(p, id) {
			return p
		}
	}
	return f.flatIndex(dir)[id]
}

// hasBuildID reports whether path is a regular ELF file with build id id.
func hasBuildID(path, id string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	got, err := binary.ReadBuildID(path)
	want, _ := hex.DecodeString(id)
	return err == nil && len(got) > 0 && bytes.Equal(got, want)
}

// flatIndex maps the build ids of the ELF files directly in dir to their
// paths (the first in name order where two share one), reading dir once.
func (f *Finder) flatIndex(dir string) map[string]string {
	if idx, ok := f.flat[dir]; ok {
		return idx
	}
	idx := map[string]string{}
	entries, _ := os.ReadDir(dir) // sorted by name; a missing dir holds nothing
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue
		}
		got, err := binary.ReadBuildID(p)
		if err != nil || len(got) == 0 {
			continue
		}
		if id := hex.EncodeToString(got); idx[id] == "" {
			idx[id] = p
		}
	}
	if f.flat == nil {
		f.flat = map[string]map[string]string{}
	}
	f.flat[dir] = idx
	return idx
}
