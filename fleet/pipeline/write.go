package pipeline

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/locate"
)

// writeFn is stage 3, Write: a key and its merged profile in, files out
// in OutDir, one per build id and format, each written whole or not at all
// (the driver's atomicfile; copied once whole to a remote OutDir):
//
//   - instrumentation profiles: the indexed .profdata,
//     instr/<binary id>.profdata;
//   - address profiles: the key's binaries are fetched once (--binary, or
//     by build id from --binary-dir and debuginfod), and the profile is
//     symbolized and written in each format as profgen
//     --unsymbolized-profile FILE --binary BIN --format F does, to
//     <kind>/<build id>.<ext> (key.file, extensions). A profile of several
//     binaries gives one pprof file, stacks/<id>+<id>....pb.gz, and an
//     LLVM profile per binary.
//
// A format the driver refuses for the key's kind (pprof of LBR ranges) is
// counted ("refused:<key> <format>: <why>") and left out.
type writeFn struct {
	Binaries   []string
	BinaryDirs []string
	Formats    []string
	OutDir     string

	byID   map[string]string // Binaries by build id
	finder *locate.Finder
}

// extensions name the output files of each format.
var extensions = map[string]string{
	"text":      "text",
	"extbinary": "extbinary",
	"binary":    "binary",
	"gcc":       "afdo",
	"pprof":     "pb.gz",
	kindInstr:   "profdata",
}

// Setup reads the build ids of the --binary files.
func (f *writeFn) Setup() error {
	f.byID = map[string]string{}
	for _, b := range f.Binaries {
		id, err := binary.ReadBuildID(b)
		if err != nil {
			return err
		}
		f.byID[hex.EncodeToString(id)] = b
	}
	f.finder = locate.FromEnv(f.BinaryDirs)
	return nil
}

// ProcessElement writes the files of one key.
func (f *writeFn) ProcessElement(ctx context.Context, k string, data []byte) error {
	key, err := parseKey(k)
	if err != nil {
		return err
	}
	if key.kind == kindInstr {
		return f.output(ctx, key.file(key.name(), extensions[kindInstr]), func(path string) error { return writeLocal(path, data) })
	}
	if err := f.symbolize(ctx, key, data); err != nil {
		return fmt.Errorf("build id %s: %w", key.name(), err)
	}
	return nil
}

// symbolize writes the address profile data of key in every format.
func (f *writeFn) symbolize(ctx context.Context, key key, data []byte) error {
	opts, err := f.binaryOptions(ctx, key)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "profgen-fleet-write")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	opts.UnsymbolizedProfile = filepath.Join(tmp, "merged.addr")
	if err := os.WriteFile(opts.UnsymbolizedProfile, data, 0o644); err != nil {
		return err
	}
	for _, format := range f.Formats {
		opts.Format = format
		err := f.writeFormat(ctx, key, opts, tmp)
		var usage *driver.UsageError
		if errors.As(err, &usage) {
			count(ctx, fmt.Sprintf("%s%s %s: %v", prefixRefused, key, format, err), 1)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// binaryOptions are the driver's options naming key's binaries: fetched
// once per key.
func (f *writeFn) binaryOptions(ctx context.Context, key key) (driver.Options, error) {
	opts := driver.Options{Quiet: true}
	for _, id := range key.buildIDs() {
		path, err := f.binaryOf(ctx, id)
		if err != nil {
			return opts, err
		}
		opts.Binaries = append(opts.Binaries, path)
	}
	if len(opts.Binaries) == 1 && len(f.Binaries) == 0 {
		if dbg, err := f.finder.Debuginfo(ctx, key.ids[0]); err == nil && dbg != opts.Binaries[0] {
			opts.DebugBinary = dbg
		}
	}
	return opts, nil
}

// binaryOf is the binary with build id id ("": none): a --binary, else
// found by its build id.
func (f *writeFn) binaryOf(ctx context.Context, id string) (string, error) {
	if p, ok := f.byID[id]; ok {
		return p, nil
	}
	if id == "" && len(f.Binaries) == 1 {
		return f.Binaries[0], nil
	}
	if len(f.Binaries) > 0 || id == "" {
		return "", fmt.Errorf("no --binary has build id %q", id)
	}
	return f.finder.Executable(ctx, id)
}

// writeFormat writes one format of key: one file, or one per binary for an
// LLVM profile of several binaries (the driver names them by base name in
// a directory of tmp; they are renamed by build id).
func (f *writeFn) writeFormat(ctx context.Context, key key, opts driver.Options, tmp string) error {
	name := key.file(key.name(), extensions[opts.Format])
	if len(opts.Binaries) == 1 || opts.Format == "pprof" {
		return f.output(ctx, name, func(path string) error {
			opts.Output = path
			return driver.Run(ctx, opts)
		})
	}
	dir := filepath.Join(tmp, opts.Format)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	opts.Output = filepath.Join(dir, "%b")
	if err := driver.Run(ctx, opts); err != nil {
		return err
	}
	for i, id := range key.ids {
		written := filepath.Join(dir, filepath.Base(opts.Binaries[i]))
		if _, err := os.Stat(written); err != nil {
			continue // a binary without samples has no profile
		}
		if err := f.output(ctx, key.file(id, extensions[opts.Format]), func(path string) error { return copyLocal(written, path) }); err != nil {
			return err
		}
	}
	return nil
}

// output makes the file name (key.file) in OutDir with write, which
// writes the whole file at the local path it is given.
func (f *writeFn) output(ctx context.Context, name string, write func(path string) error) error {
	dst := strings.TrimSuffix(f.OutDir, "/") + "/" + name
	if !isRemote(f.OutDir) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		err := write(dst)
		if err == nil {
			count(ctx, prefixWrote+dst, 1)
		}
		return err
	}
	tmp, err := os.MkdirTemp("", "profgen-fleet-out")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	local := filepath.Join(tmp, filepath.Base(name))
	if err := write(local); err != nil {
		return err
	}
	if err := publish(ctx, local, dst); err != nil {
		return err
	}
	count(ctx, prefixWrote+dst, 1)
	return nil
}

// copyLocal copies the file at from to the path to, whole or not at all.
func copyLocal(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeLocal(to, data)
}
