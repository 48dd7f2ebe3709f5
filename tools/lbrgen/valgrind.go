package main

import (
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
	tracedRun
	binary string
	args   []string
	stdin  string // file for the program's standard input; "" for none
}

func (v *valgrindRun) run(fn instructionFunc) error {
	dir, err := os.MkdirTemp("", "lbrgen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	stripped := filepath.Join(dir, filepath.Base(v.binary))
	if out, err := exec.Command("objcopy", "--strip-debug", v.binary, stripped).CombinedOutput(); err != nil {
		return fmt.Errorf("objcopy --strip-debug %s: %v: %s", v.binary, err, out)
	}
	// The same program path, working directory name length and environment
	// every time: they shape the stack, and so the instructions that run.
	cmd := exec.Command("valgrind", append([]string{"--tool=lackey", "--trace-mem=yes", "--log-fd=3", "./" + filepath.Base(stripped)}, v.args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}
	cmd.Stderr = os.Stderr
	return v.tracedRun.run(cmd, v.stdin, readLackey, fn)
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
