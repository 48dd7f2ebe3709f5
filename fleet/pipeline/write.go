package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/driver"
)

// writeFn is stage 3, Write: a key and its merged profile in, files out
// in OutDir, one per build id and format, each written whole or not at all
// (the driver's atomicfile; copied once whole to a remote OutDir):
//
//   - instrumentation profiles: the indexed .profdata,
//     instr/<binary id>.profdata;
//   - address profiles: one driver.Convert of the key's merged profile
//     (profgen --unsymbolized-profile - --binary BIN... --format F --also
//     ...) writes every format from one symbolization, each file named
//     <kind>/<build id>.<ext> (key.file, driver.Extension) by the build ids
//     the driver's result gives. A profile of several binaries gives one
//     pprof file, stacks/<id>+<id>....pb.gz, and an LLVM profile per
//     binary.
//
// A format the driver refuses for the key's kind (pprof of LBR ranges, gcc
// of a probe CS profile) is reported (Summary.Refused) and left out; the
// others are written.
type writeFn struct {
	Binaries   []string
	BinaryDirs []string
	Formats    []string
	OutDir     string

	finder driver.BinaryFinder // Binaries by build id, else BinaryDirs and debuginfod
	cache  *driver.BinaryCache // the binaries this worker opened
}

// instrExt is the extension of the merged instrumentation profiles.
const instrExt = "profdata"

// Setup makes the worker's finder and cache of binaries.
func (f *writeFn) Setup() error {
	finder, err := newFinder(f.Binaries, f.BinaryDirs)
	f.finder, f.cache = finder, driver.NewBinaryCache()
	return err
}

// Teardown closes the binaries the worker opened.
func (f *writeFn) Teardown() error {
	f.cache.Close()
	return nil
}

// ProcessElement writes the files of one key, and reports them (a
// summary fragment).
func (f *writeFn) ProcessElement(ctx context.Context, k string, data []byte, report func(string)) error {
	key, err := parseKey(k)
	if err != nil {
		return err
	}
	rep := &Summary{}
	if key.kind == kindInstr {
		err = f.output(ctx, rep, key.file(key.name(), instrExt), func(path string) error { return writeLocal(path, data) })
	} else if err = f.symbolize(ctx, rep, key, data); err != nil {
		err = fmt.Errorf("build id %s: %w", key.name(), err)
	}
	if err != nil {
		return err
	}
	report(rep.encode())
	return nil
}

// symbolize writes the address profile data of key in every format, from
// one conversion, into a temporary directory, then each file under its
// name (publishAll).
func (f *writeFn) symbolize(ctx context.Context, rep *Summary, key key, data []byte) error {
	opts, err := f.binaryOptions(ctx, key)
	if err != nil {
		return err
	}
	tmp, err := f.tempDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	opts.UnsymbolizedProfile, opts.Stdin = "-", bytes.NewReader(data)
	for i, format := range f.Formats {
		out := filepath.Join(tmp, fmt.Sprintf("%d-%%b", i))
		if i == 0 {
			opts.Format, opts.Output = format, out
			continue
		}
		opts.Also = append(opts.Also, driver.AlsoOutput{Format: format, Output: out})
	}
	opens := f.cache.Opens()
	res, err := driver.Convert(ctx, opts)
	countOpens(ctx, f.cache.Opens()-opens)
	if err != nil {
		return err
	}
	rep.Symbolized++
	for _, r := range res.Refused {
		rep.Refused = append(rep.Refused, fmt.Sprintf("%s %s: %v", key, r.Format, r.Err))
	}
	return f.publishAll(ctx, rep, key, res.Files)
}

// tempDir is where a key's files are written before they are named: in
// a local OutDir, so that naming them is a rename.
func (f *writeFn) tempDir() (string, error) {
	if isRemote(f.OutDir) {
		return os.MkdirTemp("", "profgen-fleet-out")
	}
	return os.MkdirTemp(f.OutDir, ".profgen-fleet-tmp-")
}

// publishAll names each file the conversion wrote by its format and the
// build ids it is the profile of.
func (f *writeFn) publishAll(ctx context.Context, rep *Summary, key key, files []driver.OutputFile) error {
	for _, file := range files {
		ext, err := driver.Extension(file.Format)
		if err != nil {
			return err
		}
		if file.Part != "" {
			ext += "." + file.Part // <build id>.propeller.cc_profile.txt
		}
		name := key.file(newKey(key.kind, file.BuildIDs).name(), ext)
		if err := f.output(ctx, rep, name, func(path string) error { return os.Rename(file.Path, path) }); err != nil {
			return err
		}
	}
	return nil
}

// binaryOptions are the driver's options for key's binaries: each found
// once per key (by the worker's finder), opened once per worker (its
// cache).
func (f *writeFn) binaryOptions(ctx context.Context, key key) (driver.Options, error) {
	opts := driver.Options{Quiet: true, Jobs: 1, KeepRefused: true, BinaryCache: f.cache}
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
	if id == "" && len(f.Binaries) == 1 {
		return f.Binaries[0], nil
	}
	if id == "" {
		return "", fmt.Errorf("no --binary has build id %q", id)
	}
	return f.finder.Executable(ctx, id)
}

// output makes the file name (key.file) in OutDir with write, which
// writes the whole file at the local path it is given; rep lists it.
func (f *writeFn) output(ctx context.Context, rep *Summary, name string, write func(path string) error) error {
	if err := writeOut(ctx, f.OutDir, name, write); err != nil {
		return err
	}
	rep.Written = append(rep.Written, name)
	return nil
}

// writeOut makes the file name in outDir with write, which writes the
// whole file at the local path it is given: there, or in a temporary
// directory and then copied whole to a remote outDir.
func writeOut(ctx context.Context, outDir, name string, write func(path string) error) error {
	dst := strings.TrimSuffix(outDir, "/") + "/" + name
	if !isRemote(outDir) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return write(dst)
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
	return publish(ctx, local, dst)
}

// copyLocal copies the file at from to the path to, whole or not at all.
func copyLocal(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeLocal(to, data)
}
