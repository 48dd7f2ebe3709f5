// Package locate finds binaries by their GNU build id, where perf and gdb
// find them: in directories, flat or laid out as perf's build-id cache
// (~/.debug by default), then on debuginfod servers, whose downloads it
// keeps in the elfutils client's cache.
//
// In: a build id (lower-case hex, as perf prints it). Out: the path of a
// local file holding the binary with that build id (Executable), or one
// holding its DWARF (Debuginfo); ErrNotFound when no place has it. Every
// file handed out has been checked to carry the build id asked for.
package locate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrNotFound is wrapped by the error of a build id found nowhere.
var ErrNotFound = errors.New("not found")

// Finder searches its directories in order, then its debuginfod servers.
// It is not safe for concurrent use.
type Finder struct {
	// Dirs are searched in order: each flat (a file named by the build id,
	// or any ELF file in it with that build id) or a build-id cache
	// (DIR/.build-id/xx/rest).
	Dirs []string
	// Servers are debuginfod URL prefixes, asked in order after Dirs.
	Servers []string
	// CacheDir keeps the servers' files as <build id>/executable and
	// <build id>/debuginfo.
	CacheDir string
	// Timeout bounds each request until its response starts.
	Timeout time.Duration

	flat map[string]map[string]string // dir → build id → file, read once
}

// defaultTimeout is DEBUGINFOD_TIMEOUT's default in elfutils' client.
const defaultTimeout = 90 * time.Second

// FromEnv returns the Finder of dirs (perf's build-id cache when there is
// none) and of the debuginfod client's environment: DEBUGINFOD_URLS
// (space-separated), DEBUGINFOD_CACHE_PATH, DEBUGINFOD_TIMEOUT (seconds).
func FromEnv(dirs []string) *Finder {
	if len(dirs) == 0 {
		dirs = []string{PerfCacheDir()}
	}
	f := &Finder{Dirs: dirs, Servers: strings.Fields(os.Getenv("DEBUGINFOD_URLS")), CacheDir: clientCacheDir(), Timeout: defaultTimeout}
	var secs int
	if _, err := fmt.Sscan(os.Getenv("DEBUGINFOD_TIMEOUT"), &secs); err == nil && secs > 0 {
		f.Timeout = time.Duration(secs) * time.Second
	}
	return f
}

// PerfCacheDir is perf's build-id cache, $HOME/.debug. perf (6.1) sets
// $PERF_BUILDID_DIR for the scripts it runs but does not read it.
func PerfCacheDir() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".debug")
}

// clientCacheDir is the elfutils client's cache: $DEBUGINFOD_CACHE_PATH,
// else $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client.
func clientCacheDir() string {
	if d := os.Getenv("DEBUGINFOD_CACHE_PATH"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "debuginfod_client")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "debuginfod_client")
}

// Places names where f searches, for a message about what it did not find.
func (f *Finder) Places() string {
	places := slices.Clone(f.Dirs)
	for _, s := range f.Servers {
		places = append(places, "debuginfod "+s)
	}
	return strings.Join(places, ", ")
}

// Executable returns a file holding the binary with build id id.
func (f *Finder) Executable(ctx context.Context, id string) (string, error) {
	if err := checkID(id); err != nil {
		return "", err
	}
	for _, dir := range f.Dirs {
		if p := f.inDir(dir, id); p != "" {
			return p, nil
		}
	}
	return f.download(ctx, id, "executable")
}

// Debuginfo returns a file holding the DWARF of the binary with build id
// id: perf's cached debug file, the .debug file of the /usr/lib/debug
// layout, or debuginfod's.
func (f *Finder) Debuginfo(ctx context.Context, id string) (string, error) {
	if err := checkID(id); err != nil {
		return "", err
	}
	for _, dir := range f.Dirs {
		link := buildIDLink(dir, id)
		for _, p := range []string{filepath.Join(link, "debug"), link + ".debug", filepath.Join(dir, id, "debuginfo")} {
			if hasBuildID(p, id) {
				return p, nil
			}
		}
	}
	return f.download(ctx, id, "debuginfo")
}

// checkID refuses what is no build id: it becomes part of paths and URLs.
func checkID(id string) error {
	if len(id) < 2 || strings.Trim(id, "0123456789abcdef") != "" {
		return fmt.Errorf("build id %q: not lower-case hex", id)
	}
	return nil
}

// buildIDLink is DIR/.build-id/xx/rest, the link of perf's (and gdb's)
// build-id directories.
func buildIDLink(dir, id string) string {
	return filepath.Join(dir, ".build-id", id[:2], id[2:])
}
