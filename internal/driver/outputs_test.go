package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/profformat"
)

const parityDir = "../../cmd/profgen/testdata/parity/"

// TestOutputTableShape: the table has at most one row for each (kind,
// format), and each row builds or refuses (or both: it refuses some
// requests).
func TestOutputTableShape(t *testing.T) {
	seen := map[[2]int]bool{}
	for _, r := range outputTable {
		cell := [2]int{int(r.kind), int(r.format)}
		if seen[cell] {
			t.Errorf("two rows for (%s, %s)", r.kind, r.format)
		}
		seen[cell] = true
		if r.build == nil && r.refuse == nil {
			t.Errorf("(%s, %s): a row builds or refuses", r.kind, r.format)
		}
	}
}

// TestOutputWithoutRow: a (kind, format) the table has no row for is
// refused in one line.
func TestOutputWithoutRow(t *testing.T) {
	saved := outputTable
	t.Cleanup(func() { outputTable = saved })
	outputTable = nil
	_, err := outputFor(kindLBR, newPlan(Options{PerfScript: "in.script", Format: "text"}).first())
	if want := "in.script holds LBR input: the LLVM format does not take it"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// outputFormatCase is a format as the options ask for it, and what
// profformat.Sniff tells of the file written (0: by the kind).
var outputFormatCases = []struct {
	name    string
	opts    Options
	written profformat.Format
}{
	{"text", Options{Format: "text"}, profformat.SampleText},
	{"binary", Options{Format: "binary"}, profformat.SampleBinary},
	{"extbinary", Options{Format: "extbinary"}, profformat.SampleExtBinary},
	{"pprof", Options{Format: "pprof"}, profformat.GzipPprof},
	{"address", Options{SkipSymbolization: true}, 0},
	{"gcc", Options{Format: "gcc"}, profformat.SampleGCC},
	{"bolt", Options{Format: "bolt"}, 0},
	{"bolt-preagg", Options{Format: "bolt-preagg"}, 0},
}

// boltWritten is what the BOLT formats write, by the kind of the source
// (hybrid samples are read as branch stacks).
var boltWritten = map[string]map[profileKind]string{
	"bolt":        {kindLBR: "fdata", kindCS: "fdata", kindCSProbe: "fdata", kindStacks: "no_lbr"},
	"bolt-preagg": {kindLBR: "preagg", kindCS: "preagg", kindCSProbe: "preagg"},
}

// sniffBolt tells which of BOLT's texts data is.
func sniffBolt(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("no_lbr")):
		return "no_lbr"
	case bytes.HasPrefix(data, []byte("B ")), bytes.HasPrefix(data, []byte("F ")):
		return "preagg"
	case bytes.HasPrefix(data, []byte("0 ")), bytes.HasPrefix(data, []byte("1 ")):
		return "fdata"
	}
	return fmt.Sprintf("%.20q", data)
}

// addressFormats is what the address profile of each kind is.
var addressFormats = map[profileKind]profformat.Format{
	kindLBR:           profformat.UnsymbolizedLBR,
	kindStacks:        profformat.AddressStacks,
	kindCS:            profformat.UnsymbolizedCS,
	kindCSProbe:       profformat.UnsymbolizedCS,
	kindSampleProfile: profformat.SampleExtBinary, // --format, as llvm-profgen
}

// outputSource is an input that hands one kind of profile to the table.
type outputSource struct {
	name string
	kind profileKind
	opts Options
}

// TestOutputTable: every (kind × format) row writes its file, or is refused
// with its one-line error, from every source of that kind: the recording,
// and its address profile given back (--unsymbolized-profile).
func TestOutputTable(t *testing.T) {
	sources := []outputSource{
		{"LBR", kindLBR, Options{PerfScript: "testdata/t.script", Binaries: []string{"testdata/t.bin"}}},
		{"call stacks", kindStacks, Options{PerfScript: callstackDir + "forky.pid-ip-sym-dso.script", Binaries: []string{callstackDir + "forky"}}},
		{"CS", kindCS, Options{PerfScript: parityDir + "cs-noprobe.script", Binaries: []string{parityDir + "cs-noprobe.bin"}}},
		{"CS probe", kindCSProbe, Options{PerfScript: parityDir + "cs-bare.script", Binaries: []string{parityDir + "cs-probe.bin"}}},
		{"sample profile", kindSampleProfile, Options{LLVMSampleProfile: parityDir + "gen.sample.txt", Binaries: []string{"testdata/t.bin"}}},
		{"CS sample profile", kindSampleProfile, Options{LLVMSampleProfile: parityDir + "cs-flat-noprobe.sample.txt", Binaries: []string{parityDir + "cs-noprobe.bin"}}},
	}
	// The refusals, by source and format; every other cell writes.
	unsymbolizedPprof := "--unsymbolized-profile holds LBR ranges; --format=pprof needs call stacks"
	unsymbolizedBolt := "--unsymbolized-profile holds LBR ranges and branches, not the branch stacks BOLT's traces are made of"
	refused := map[[2]string]string{
		{"LBR", "pprof"}:                            "t.script holds branch stacks (LBR) without call chains: --format=pprof needs perf record -g",
		{"CS", "pprof"}:                             "cs-noprobe.script holds hybrid samples: --format=pprof takes call-stack samples (perf record -g without -b)",
		{"CS probe", "pprof"}:                       "cs-bare.script holds hybrid samples: --format=pprof takes call-stack samples (perf record -g without -b)",
		{"CS probe", "binary"}:                      "pseudo-probe profiles need the extbinary or text format",
		{"sample profile", "pprof"}:                 `--format: unknown sample profile format "pprof" (want text, binary or extbinary)`,
		{"CS sample profile", "pprof"}:              `--format: unknown sample profile format "pprof" (want text, binary or extbinary)`,
		{"unsymbolized LBR", "pprof"}:               unsymbolizedPprof,
		{"unsymbolized CS", "pprof"}:                unsymbolizedPprof,
		{"unsymbolized CS probe", "pprof"}:          unsymbolizedPprof,
		{"unsymbolized CS probe", "binary"}:         "pseudo-probe profiles need the extbinary or text format",
		{"unsymbolized CS probe", "gcc"}:            "holds contexts of pseudo probes: --format=gcc needs source lines",
		{"call stacks", "bolt-preagg"}:              "forky.pid-ip-sym-dso.script holds call stacks input: the BOLT pre-aggregated format does not take it",
		{"unsymbolized call stacks", "bolt-preagg"}: "holds call stacks input: the BOLT pre-aggregated format does not take it",
		{"sample profile", "bolt"}:                  "gen.sample.txt holds sample profile input: the BOLT fdata format does not take it",
		{"sample profile", "bolt-preagg"}:           "gen.sample.txt holds sample profile input: the BOLT pre-aggregated format does not take it",
		{"CS sample profile", "bolt"}:               "cs-flat-noprobe.sample.txt holds sample profile input: the BOLT fdata format does not take it",
		{"CS sample profile", "bolt-preagg"}:        "cs-flat-noprobe.sample.txt holds sample profile input: the BOLT pre-aggregated format does not take it",
	}
	for _, src := range []string{"unsymbolized LBR", "unsymbolized CS", "unsymbolized CS probe"} {
		refused[[2]string{src, "bolt"}] = unsymbolizedBolt
		refused[[2]string{src, "bolt-preagg"}] = unsymbolizedBolt
	}
	tmp := t.TempDir()
	for _, src := range sources {
		var addr string // the source's address profile, read back below
		for _, fc := range outputFormatCases {
			t.Run(src.name+"/"+fc.name, func(t *testing.T) {
				opts := src.opts
				opts.Format, opts.SkipSymbolization = fc.opts.Format, fc.opts.SkipSymbolization
				out := checkOutputCell(t, cellDir(t, tmp, src.name, fc.name), opts, src, fc.written, refused[[2]string{src.name, fc.name}])
				if fc.opts.SkipSymbolization && src.kind != kindSampleProfile {
					addr = out
				}
			})
		}
		if addr == "" {
			continue
		}
		unsym := src
		unsym.name = "unsymbolized " + src.name
		unsym.opts = Options{UnsymbolizedProfile: addr, Binaries: src.opts.Binaries}
		for _, fc := range outputFormatCases {
			t.Run(unsym.name+"/"+fc.name, func(t *testing.T) {
				opts := unsym.opts
				opts.Format, opts.SkipSymbolization = fc.opts.Format, fc.opts.SkipSymbolization
				checkOutputCell(t, cellDir(t, tmp, unsym.name, fc.name), opts, unsym, fc.written, refused[[2]string{unsym.name, fc.name}])
			})
		}
	}
}

// cellDir is an empty directory of tmp for the output of a cell.
func cellDir(t *testing.T, tmp, source, format string) string {
	dir := filepath.Join(tmp, strings.ReplaceAll(source, " ", "-")+"."+format)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkOutputCell runs opts with its output in dir and checks that the
// file written is of the format asked for (for the address profile, of
// the source's kind), and, in text, has probes where the source has; or that the run failed with one line holding refusal and
// wrote nothing. It returns the file written.
func checkOutputCell(t *testing.T, dir string, opts Options, src outputSource, written profformat.Format, refusal string) string {
	t.Helper()
	opts.Output = filepath.Join(dir, "out")
	var stderr bytes.Buffer
	opts.Stderr = &stderr
	err := Run(context.Background(), opts)
	if refusal != "" {
		if err == nil || !strings.Contains(err.Error(), refusal) || strings.Contains(err.Error(), "\n") {
			t.Errorf("err = %v, want one line with %q", err, refusal)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%s written although refused", entries[0].Name())
		}
		return ""
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if want, ok := boltWritten[opts.Format]; ok {
		data, _ := os.ReadFile(opts.Output)
		if got := sniffBolt(data); got != want[src.kind] {
			t.Errorf("wrote %s, want %s", got, want[src.kind])
		}
		return opts.Output
	}
	if written == 0 {
		written = addressFormats[src.kind]
	}
	if got, err := profformat.SniffFile(opts.Output); err != nil || got != written {
		t.Errorf("wrote %v (%v), want %v", got, err, written)
	}
	if data, _ := os.ReadFile(opts.Output); written == profformat.SampleText && src.kind == kindCSProbe && !bytes.Contains(data, []byte("!CFGChecksum")) {
		t.Errorf("a %s profile without probes: %.40q", src.kind, data)
	}
	return opts.Output
}
