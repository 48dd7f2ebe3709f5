package stackpipe

import (
	"bytes"
	"os"

	"github.com/profgen/profgen/internal/perfdata"
)

// sniffSize is how much of a perf script is read to tell its kind.
const sniffSize = 256 << 10

// IsCallStackScript reports whether perf script text begins with call-stack
// samples (tab-indented frame lines) and holds no LBR branch stack entries
// ("0xFROM/0xTO/..."), judging by its first 256 KiB.
func IsCallStackScript(prefix []byte) bool {
	if len(prefix) > sniffSize {
		prefix = prefix[:sniffSize]
	}
	frames := false
	for line := range bytes.Lines(prefix) {
		if bytes.Contains(line, []byte("PERF_RECORD_")) {
			continue
		}
		if isBranchLine(line) {
			return false
		}
		frames = frames || (len(line) > 1 && line[0] == '\t')
	}
	return frames
}

// isBranchLine reports whether a line holds a brstack entry 0xA/0xB/.
func isBranchLine(line []byte) bool {
	for _, tok := range bytes.Fields(line) {
		if bytes.HasPrefix(tok, []byte("0x")) && bytes.Contains(tok, []byte("/0x")) {
			return true
		}
	}
	return false
}

// IsCallStackInput tells whether the input of cfg holds call-stack samples
// without branch stacks: by the perf.data header, or by the start of the
// perf script file. Standard input is not inspected (false).
func IsCallStackInput(cfg Config) (bool, error) {
	if cfg.PerfData != "" {
		c, err := perfdata.ReadContent(cfg.PerfData)
		return err == nil && c.Callchain && !c.BranchStack, err
	}
	if cfg.PerfScript == "" || cfg.PerfScript == "-" {
		return false, nil
	}
	f, err := os.Open(cfg.PerfScript)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, sniffSize)
	n, _ := f.Read(buf)
	return IsCallStackScript(buf[:n]), nil
}
