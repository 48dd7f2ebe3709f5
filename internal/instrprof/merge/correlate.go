package merge

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/locate"
)

// Correlation kinds, as llvm-profdata's --correlate names them.
const (
	CorrelateBinary    = "binary"
	CorrelateDebugInfo = "debug-info"
)

// Lookup finds each raw's correlation by its binary id (llvm-profdata
// merge --correlate with --debug-file-directory or --debuginfod): the
// binary found is opened once, whichever raws name it.
type Lookup struct {
	// Kind is CorrelateBinary or CorrelateDebugInfo.
	Kind string
	// Finder finds a binary (or its debug file) by build id.
	Finder *locate.Finder
	// MaxWarnings bounds the warnings of one binary's DWARF (0: no limit).
	MaxWarnings int

	mu       sync.Mutex
	byID     map[string]*raw.Correlation
	errs     map[string]error
	warnings map[string][]string // by build id
}

// find is raw.Reader's Lookup: a profile must hold exactly one binary id,
// as in llvm-profdata.
func (l *Lookup) find(ids [][]byte) (*raw.Correlation, error) {
	switch len(ids) {
	case 0:
		return nil, errors.New("unable to correlate profile: unsupported profile binary correlation when there is no build ID in a profile")
	case 1:
	default:
		return nil, errors.New("unable to correlate profile: unsupported profile binary correlation when there are multiple build IDs in a profile")
	}
	id := hex.EncodeToString(ids[0])
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.byID[id]; ok {
		return c, l.errs[id]
	}
	if l.byID == nil {
		l.byID, l.errs, l.warnings = map[string]*raw.Correlation{}, map[string]error{}, map[string][]string{}
	}
	c, err := l.open(id)
	l.byID[id], l.errs[id] = c, err
	return c, err
}

// open finds and reads the binary of build id id.
func (l *Lookup) open(id string) (*raw.Correlation, error) {
	path, err := l.Finder.Debuginfo(context.Background(), id)
	if errors.Is(err, locate.ErrNotFound) {
		return nil, fmt.Errorf("unable to correlate profile: Missing build ID: %s (%w)", id, err)
	}
	if err != nil {
		return nil, err
	}
	if l.Kind == CorrelateBinary {
		return raw.OpenCorrelation(path)
	}
	c, warnings, err := raw.OpenDebugInfoCorrelation(path, l.MaxWarnings)
	l.warnings[id] = warnings
	return c, err
}

// Warnings are the warnings of the binaries read so far, by build id.
func (l *Lookup) Warnings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var all []string
	for _, id := range slices.Sorted(maps.Keys(l.warnings)) {
		all = append(all, l.warnings[id]...)
	}
	return all
}
