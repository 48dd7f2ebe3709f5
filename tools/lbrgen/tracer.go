package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// The instruction sources (valgrind lackey for x86-64, qemu-aarch64 for
// AArch64) share how their tracer runs and how its log is read.

// instructionFunc takes one executed instruction; errStop ends the stream.
type instructionFunc func(addr uint64, size uint32) error

// logReader parses a tracer's log from r, calling fn per instruction.
type logReader func(r io.Reader, fn instructionFunc) error

// tracedRun is a tracer process writing its log to file descriptor 3, a
// pipe read as the log comes: gigabytes a second, never stored.
type tracedRun struct {
	pid  int // of the tracer, for /proc/PID/maps
	pipe *os.File
}

// run starts cmd with the pipe as its fd 3 and stdin (a file, or none)
// and streams the log through read into fn. fn stopping the stream
// (errStop) kills the tracer.
func (tr *tracedRun) run(cmd *exec.Cmd, stdin string, read logReader, fn instructionFunc) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	tr.pipe = r
	cmd.ExtraFiles = []*os.File{w}
	if stdin != "" {
		in, err := os.Open(stdin)
		if err != nil {
			w.Close()
			return err
		}
		defer in.Close()
		cmd.Stdin = in
	}
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", cmd.Args[0], err)
	}
	w.Close()
	tr.pid = cmd.Process.Pid
	stopped := false
	err = read(r, func(addr uint64, size uint32) error {
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

// eachLine calls fn with every line of r (numbered from 1, newline
// included), reading through a large buffer; a line longer than the
// buffer is skipped (instruction lines are short). fn returning errStop
// ends the stream without error; a read error names the line.
func eachLine(r io.Reader, what string, fn func(lineNo int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if err := skipLine(br); err != nil {
				return err
			}
			continue
		}
		if ferr := fn(lineNo, line); ferr != nil {
			if ferr == errStop {
				return nil
			}
			return ferr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s line %d: %w", what, lineNo, err)
		}
	}
}

func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
