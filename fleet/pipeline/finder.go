package pipeline

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/locate"
)

// listFinder finds binaries among the --binary files, by their build ids:
// the driver's BinaryFinder for a fleet given its binaries.
type listFinder struct {
	byID  map[string]string
	paths []string
}

// newFinder is the finder of the fleet's binaries: the --binary files, or
// --binary-dir (else perf's build-id cache) and debuginfod.
func newFinder(binaries, dirs []string) (driver.BinaryFinder, error) {
	if len(binaries) == 0 {
		return locate.FromEnv(dirs), nil
	}
	f := &listFinder{byID: map[string]string{}, paths: binaries}
	for _, b := range binaries {
		id, err := binary.ReadBuildID(b)
		if err != nil {
			return nil, err
		}
		f.byID[hex.EncodeToString(id)] = b
	}
	return f, nil
}

// Executable is the --binary with build id id.
func (f *listFinder) Executable(_ context.Context, id string) (string, error) {
	if p, ok := f.byID[id]; ok {
		return p, nil
	}
	return "", fmt.Errorf("build id %s: %w in --binary %s", id, locate.ErrNotFound, strings.Join(f.paths, ", "))
}

// Debuginfo is the same file: a --binary is its own debug file.
func (f *listFinder) Debuginfo(ctx context.Context, id string) (string, error) {
	return f.Executable(ctx, id)
}

// Places names the --binary files.
func (f *listFinder) Places() string { return "--binary " + strings.Join(f.paths, ", ") }
