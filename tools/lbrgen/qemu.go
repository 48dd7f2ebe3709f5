package main

import (
	"bufio"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// AArch64 binaries are traced under qemu-user: -singlestep makes every
// guest instruction a translation block of its own, and -d exec,nochain
// logs every block as it runs,
//
//	Trace 0: 0x7fd3d0391ac0 [0000000001009331/0000005502928f40/00000001/00000201] main
//
// (CPU index, host code, then cs_base/pc/flags/cflags of the guest), so
// the log holds every executed PC; instructions are 4 bytes, and a PC that
// is not the previous one + 4 is the target of a taken branch. qemu-user
// runs each guest thread as a CPU of its own: only one CPU's stream (the
// main thread, 0) is kept, as interleaved threads would look like
// branches. A PC logged twice in a row (an instruction qemu restarted) is
// one execution (the recorder skips it).
//
// qemu-user puts the guest at guest_base 0: guest addresses are host
// addresses, and /proc/PID/maps of qemu lists the guest's shared objects
// (read-only on the host side: qemu translates their code) at their guest
// addresses. A PIE is loaded at 0x5500000000.

// qemuPIEBias is where qemu-aarch64 7.2 loads a PIE (the default -vgbias
// for AArch64 binaries).
const qemuPIEBias = 0x5500000000

// qemuEnv is the traced program's environment: fixed, as the stack (and so
// the instructions run) depends on it; Go programs run one thread of Go
// code without signal-based preemption, whose signals would look like
// branches.
var qemuEnv = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"}

// feedQemu streams the instructions of an AArch64 run into g: from
// qemu-aarch64, or from a saved log (-qemu-log, with -maps for the shared
// objects' mappings).
func feedQemu(o *options, g *generator) error {
	if o.qemuLog == "" {
		q := &qemuRun{binary: o.binary, args: o.args, stdin: o.stdin, sysroot: o.sysroot, cpu: o.qemuCPU}
		g.snapshot = func() ([]mapping, error) { return q.maps(g.w.lay) }
		return q.run(g.instruction)
	}
	if o.mapsFile != "" {
		g.snapshot = func() ([]mapping, error) {
			f, err := os.Open(o.mapsFile)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return readGuestMaps(f, o.sysroot, g.w.lay)
		}
	}
	in := os.Stdin
	if o.qemuLog != "-" {
		f, err := os.Open(o.qemuLog)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	return readQemuLog(in, o.qemuCPU, g.instruction)
}

// qemuRun traces a program under qemu-aarch64. The log goes through a
// pipe and is never stored.
type qemuRun struct {
	tracedRun
	binary  string
	args    []string
	stdin   string // file for the program's standard input; "" for none
	sysroot string // -L: the guest's root for the dynamic loader and libraries
	cpu     int    // the CPU (thread) whose instructions are kept
}

func (q *qemuRun) run(fn instructionFunc) error {
	dir, err := os.MkdirTemp("", "lbrgen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	prog := filepath.Join(dir, filepath.Base(q.binary))
	if err := copyFile(q.binary, prog); err != nil {
		return err
	}
	args := []string{"-L", q.sysroot, "-singlestep", "-d", "exec,nochain", "-D", "/dev/fd/3", "./" + filepath.Base(prog)}
	cmd := exec.Command("qemu-aarch64", append(args, q.args...)...)
	cmd.Dir, cmd.Env, cmd.Stderr = dir, qemuEnv, os.Stderr
	read := func(r io.Reader, fn instructionFunc) error { return readQemuLog(r, q.cpu, fn) }
	return q.tracedRun.run(cmd, q.stdin, read, fn)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}

// maps reads the guest's executable mappings of shared objects (those
// under the sysroot) from qemu's /proc/PID/maps, called when the first
// instruction of the binary comes out of the pipe: qemu runs at most a
// pipe's buffer ahead, so it is still alive. A statically linked binary
// has none.
func (q *qemuRun) maps(lay layout) ([]mapping, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(q.pid) + "/maps")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ms, err := readGuestMaps(f, q.sysroot, lay)
	growPipe(q.pipe)
	return ms, err
}

// readGuestMaps keeps the mappings of files under sysroot that load an
// executable segment (qemu maps them read-only on the host), as r-xp.
func readGuestMaps(r io.Reader, sysroot string, lay layout) ([]mapping, error) {
	root := filepath.Clean(sysroot) + "/"
	execOffsets := map[string]map[uint64]bool{}
	var ms []mapping
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasPrefix(f[5], root) {
			continue
		}
		f[1] = "r-xp" // parseMapsLine keeps executable mappings only
		m, ok := parseMapsLine(strings.Join(f, " "))
		if !ok || lay.inMain(m.Addr) {
			continue
		}
		offs, seen := execOffsets[m.Path]
		if !seen {
			offs = execSegmentOffsets(m.Path)
			execOffsets[m.Path] = offs
		}
		if offs[m.Pgoff] {
			ms = append(ms, m)
		}
	}
	return ms, sc.Err()
}

// execSegmentOffsets are the page offsets of a file's executable PT_LOADs.
func execSegmentOffsets(path string) map[uint64]bool {
	offs := map[uint64]bool{}
	f, err := elf.Open(path)
	if err != nil {
		return offs
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			offs[p.Off&^(pageSize-1)] = true
		}
	}
	return offs
}

// readQemuLog streams a qemu -d exec log and calls fn with the guest PC of
// every block CPU cpu ran (4 bytes each). Other lines are skipped. fn
// returning errStop ends the stream without error.
func readQemuLog(r io.Reader, cpu int, fn instructionFunc) error {
	want := []byte("Trace " + strconv.Itoa(cpu) + ":")
	return eachLine(r, "qemu log", func(lineNo int, line []byte) error {
		if !hasPrefix(line, want) {
			return nil
		}
		pc, ok := parseTracePC(line[len(want):])
		if !ok {
			return fmt.Errorf("qemu log line %d: malformed %q", lineNo, line)
		}
		return fn(pc, 4)
	})
}

func hasPrefix(b, prefix []byte) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == string(prefix)
}

// parseTracePC reads the guest PC of " 0xHOST [CSBASE/PC/FLAGS/CFLAGS] sym".
func parseTracePC(b []byte) (uint64, bool) {
	i := indexOf(b, '[')
	if i < 0 {
		return 0, false
	}
	b = b[i+1:]
	if i = indexOf(b, '/'); i < 0 {
		return 0, false
	}
	b = b[i+1:]
	var pc uint64
	n := 0
	for ; n < len(b) && b[n] != '/'; n++ {
		d, ok := hexDigit(b[n])
		if !ok || n >= 16 {
			return 0, false
		}
		pc = pc<<4 | uint64(d)
	}
	if n == 0 || n == len(b) {
		return 0, false
	}
	return pc, true
}

func indexOf(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
