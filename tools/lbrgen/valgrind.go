package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
)

// valgrindRun traces a program under lackey. valgrind 3.19 cannot read
// clang-19's DWARF 5, so it runs a copy without debug info (objcopy
// --strip-debug keeps every address). Lackey's output, gigabytes for a
// second of CPU, goes through a pipe and is never stored.
type valgrindRun struct {
	binary string
	args   []string
	stdin  string // file for the program's standard input; "" for none
	pid    int    // of the running valgrind, for /proc/PID/maps
	pipe   *os.File
}

func (v *valgrindRun) run(fn func(addr uint64, size uint32) error) error {
	dir, err := os.MkdirTemp("", "lbrgen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	stripped := filepath.Join(dir, filepath.Base(v.binary))
	if out, err := exec.Command("objcopy", "--strip-debug", v.binary, stripped).CombinedOutput(); err != nil {
		return fmt.Errorf("objcopy --strip-debug %s: %v: %s", v.binary, err, out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	v.pipe = r
	// The same program path, working directory name length and environment
	// every time: they shape the stack, and so the instructions that run.
	cmd := exec.Command("valgrind", append([]string{"--tool=lackey", "--trace-mem=yes", "--log-fd=3", "./" + filepath.Base(stripped)}, v.args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stderr = os.Stderr
	if v.stdin != "" {
		in, err := os.Open(v.stdin)
		if err != nil {
			w.Close()
			return err
		}
		defer in.Close()
		cmd.Stdin = in
	}
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("valgrind: %w", err)
	}
	w.Close()
	v.pid = cmd.Process.Pid
	stopped := false
	err = readLackey(r, func(addr uint64, size uint32) error {
		ferr := fn(addr, size)
		stopped = ferr == errStop
		return ferr
	})
	if err != nil || stopped {
		cmd.Process.Kill()
		r.Close()
		cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("traced program failed: %w", err)
		}
		return err
	}
	return nil
}

// maps reads the executable mappings of the traced process, called when
// its first instruction in the binary comes out of the pipe. valgrind runs
// at most a pipe's buffer (64 KiB, a few thousand instructions) ahead, so
// the process is still alive; then the pipe grows for speed.
func (v *valgrindRun) maps(lay layout) ([]mapping, error) {
	ms, err := readMapsFile("/proc/"+strconv.Itoa(v.pid)+"/maps", lay)
	if err == nil && len(ms) == 0 {
		err = fmt.Errorf("no shared objects in /proc/%d/maps: did the program exit already?", v.pid)
	}
	growPipe(v.pipe)
	return ms, err
}

// growPipe enlarges the pipe's buffer (Linux F_SETPIPE_SZ): lackey writes
// one line per write call, and a larger buffer lets the reader take them in
// batches instead of waking for each.
func growPipe(f *os.File) {
	const fSetPipeSz = 1031
	syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSz, 1<<20)
}
