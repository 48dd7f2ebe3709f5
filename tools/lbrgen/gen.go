package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// generator connects the instruction stream to the scenarios. Output starts
// at the binary's entry point: by then the dynamic loader has mapped the
// shared objects, so every process's MMAP2 records can be written up
// front. Samples taken earlier (inside ld.so) are dropped.
type generator struct {
	w         *world
	rec       *recorder
	calls     *branchClassifier // its shadow stack gives the samples' call chains
	scenarios []scenario
	snapshot  func() ([]mapping, error) // external mappings, read once at the entry point
	maxInsns  uint64
	seed      uint64
	begun     bool
	insns     uint64
	written   uint64
}

func (g *generator) instruction(addr uint64, size uint32) error {
	if !g.begun && g.w.lay.inMain(addr) {
		if err := g.begin(addr); err != nil {
			return err
		}
	}
	if err := g.rec.instruction(addr, size); err != nil {
		return err
	}
	g.insns++
	if g.maxInsns > 0 && g.insns >= g.maxInsns {
		return errStop
	}
	return nil
}

func (g *generator) begin(addr uint64) error {
	entry := g.w.lay.vgBias + g.w.bin.Entry
	if addr != entry {
		return fmt.Errorf("first instruction of the binary at %#x, want its entry point %#x: valgrind loaded it at another base (see -vgbias)", addr, entry)
	}
	g.begun = true
	g.rec.restart(g.seed)
	g.calls.returns = g.calls.returns[:0]
	if g.snapshot != nil {
		ext, err := g.snapshot()
		if err != nil {
			return err
		}
		g.w.ext = ext
	}
	for _, sc := range g.scenarios {
		if err := sc.begin(); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) sample(s *Sample) error {
	if !g.begun {
		return nil
	}
	g.written++
	s.Stack = g.calls.callers(s.Stack[:0])
	for _, sc := range g.scenarios {
		if err := sc.sample(s); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) end() error {
	if !g.begun {
		return fmt.Errorf("no instruction of the binary in the trace (valgrind range %#x-%#x)", g.w.lay.mainLo, g.w.lay.mainHi)
	}
	for _, sc := range g.scenarios {
		if err := sc.end(); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) abort() {
	for _, sc := range g.scenarios {
		sc.abort()
	}
}

// readMaps reads the executable file mappings of a /proc/PID/maps listing,
// leaving out the binary itself ([lo,hi) in valgrind addresses) and
// valgrind's own tool executable.
func readMaps(r io.Reader, lay layout) ([]mapping, error) {
	var ms []mapping
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m, ok := parseMapsLine(sc.Text())
		if !ok || lay.inMain(m.Addr) || isValgrindTool(m.Path) {
			continue
		}
		ms = append(ms, m)
	}
	return ms, sc.Err()
}

// parseMapsLine parses "lo-hi perms offset maj:min inode path" for an
// executable file mapping.
func parseMapsLine(line string) (mapping, bool) {
	f := strings.Fields(line)
	if len(f) < 6 || !strings.Contains(f[1], "x") || !strings.HasPrefix(f[5], "/") {
		return mapping{}, false
	}
	lo, hi, ok := strings.Cut(f[0], "-")
	maj, mnr, ok2 := strings.Cut(f[3], ":")
	if !ok || !ok2 {
		return mapping{}, false
	}
	var m mapping
	var errs [6]error
	m.Addr, errs[0] = strconv.ParseUint(lo, 16, 64)
	end, e1 := strconv.ParseUint(hi, 16, 64)
	m.Pgoff, errs[1] = strconv.ParseUint(f[2], 16, 64)
	mj, e2 := strconv.ParseUint(maj, 16, 32)
	mn, e3 := strconv.ParseUint(mnr, 16, 32)
	m.Ino, errs[2] = strconv.ParseUint(f[4], 10, 64)
	errs[3], errs[4], errs[5] = e1, e2, e3
	for _, err := range errs {
		if err != nil {
			return mapping{}, false
		}
	}
	m.Len, m.Maj, m.Min, m.Prot, m.Path = end-m.Addr, uint32(mj), uint32(mn), f[1], strings.Join(f[5:], " ")
	return m, true
}

func isValgrindTool(path string) bool {
	return strings.Contains(path, "/valgrind/") && !strings.HasPrefix(filepath.Base(path), "vgpreload")
}

func readMapsFile(path string, lay layout) ([]mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readMaps(f, lay)
}
