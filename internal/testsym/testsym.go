// Package testsym is a test-only Symbolizer backed by llvm-symbolizer-19,
// the reference the profile generators are checked against. Tests skip when
// llvm-symbolizer-19 is missing.
package testsym

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"

	"github.com/profgen/profgen/internal/stackgen"
)

// Tool is the reference symbolizer.
const Tool = "llvm-symbolizer-19"

// LLVM symbolizes a fixed set of addresses with one llvm-symbolizer run.
type LLVM struct {
	frames map[uint64][]stackgen.Frame
}

type jsonFrame struct {
	FunctionName  string
	FileName      string
	Line          uint32
	StartLine     uint32
	Discriminator uint32
}

type jsonResult struct {
	Address string
	Symbol  []jsonFrame
}

// New symbolizes addrs in binary, skipping the test when the tool is missing.
func New(t testing.TB, binary string, addrs []uint64) *LLVM {
	if _, err := exec.LookPath(Tool); err != nil {
		t.Skip(Tool + " not installed")
	}
	args := []string{"--inlines", "--no-demangle", "--output-style=JSON", "--obj=" + binary}
	for _, a := range addrs {
		args = append(args, fmt.Sprintf("%#x", a))
	}
	out, err := exec.Command(Tool, args...).Output()
	if err != nil {
		t.Fatalf("%s: %v", Tool, err)
	}
	s := &LLVM{frames: map[uint64][]stackgen.Frame{}}
	var rs []jsonResult
	if err := json.Unmarshal(out, &rs); err != nil || len(rs) != len(addrs) {
		t.Fatalf("%s output: %v (%d results for %d addresses)", Tool, err, len(rs), len(addrs))
	}
	for i, r := range rs {
		s.frames[addrs[i]] = convert(r.Symbol)
	}
	return s
}

// convert turns innermost-first JSON frames into outermost-first frames.
func convert(syms []jsonFrame) []stackgen.Frame {
	var fs []stackgen.Frame
	for i := len(syms) - 1; i >= 0; i-- {
		j := syms[i]
		if j.FunctionName == "" || j.FunctionName == "??" {
			return nil
		}
		fs = append(fs, stackgen.Frame{
			Func: j.FunctionName, File: j.FileName, Line: j.Line, StartLine: j.StartLine,
			Discriminator: baseDiscriminator(j.Discriminator),
		})
	}
	return fs
}

// Frames returns the frames of a prepared address.
func (s *LLVM) Frames(addr uint64) []stackgen.Frame { return s.frames[addr] }

// baseDiscriminator decodes the first component of LLVM's discriminator
// encoding (a prefix-encoded unsigned).
func baseDiscriminator(d uint32) uint32 {
	if d&1 != 0 {
		return 0
	}
	d >>= 1
	if d&0x40 != 0 {
		return (d>>1)&0xfe0 | d&0x1f
	}
	return d & 0x1f
}
