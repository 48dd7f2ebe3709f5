package bbaddrmap

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestMatchesLLVM reads each test binary and compares every field with
// what llvm-readobj-22 --bb-addr-map prints: the functions' maps written
// in its layout must be its output, line for line (but the function
// names, which come from the symbol table, not the map).
func TestMatchesLLVM(t *testing.T) {
	readobj := testutil.Tool(t, "llvm-readobj-22")
	var bins []string
	for _, pattern := range []string{"testdata/*.elf", "testdata/*.so", "testdata/*.o"} {
		m, _ := filepath.Glob(pattern)
		bins = append(bins, m...)
	}
	for _, bin := range bins {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			out, err := exec.Command(readobj, "--bb-addr-map", bin).CombinedOutput()
			if err != nil {
				t.Fatalf("llvm-readobj-22: %v\n%s", err, out)
			}
			funcs, err := Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			got, want := readobjLayout(funcs), readobjMap(string(out))
			if got != want {
				t.Errorf("%s", firstLineDiff(got, want))
			}
		})
	}
}

// readobjMap is llvm-readobj's BBAddrMap listing without the function
// names, one listing for all sections (it prints one per section of a
// relocatable object).
func readobjMap(out string) string {
	_, m, _ := strings.Cut(out, "BBAddrMap [\n")
	m = strings.ReplaceAll(m, "\n]\nBBAddrMap [\n", "\n")
	var b strings.Builder
	b.WriteString("BBAddrMap [\n")
	for _, line := range strings.SplitAfter(m, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "Name: ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// readobjLayout writes funcs as llvm-readobj --bb-addr-map does.
func readobjLayout(funcs []Func) string {
	p := &printer{}
	p.open("BBAddrMap [")
	for i := range funcs {
		p.function(&funcs[i])
	}
	p.close("]")
	return p.b.String()
}

type printer struct {
	b     strings.Builder
	depth int
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.depth) + fmt.Sprintf(format, args...) + "\n")
}

func (p *printer) open(s string)  { p.line("%s", s); p.depth++ }
func (p *printer) close(s string) { p.depth--; p.line("%s", s) }

func (p *printer) function(f *Func) {
	p.open("Function {")
	p.line("At: 0x%X", f.Addr())
	p.open("BB Ranges [")
	for _, r := range f.Ranges {
		p.open("{")
		p.line("Base Address: 0x%X", r.Base)
		p.open("BB Entries [")
		for _, b := range r.Blocks {
			p.block(f.Features, b)
		}
		p.close("]")
		p.close("}")
	}
	p.close("]")
	if f.PGO != nil {
		p.pgo(f.Features, f.PGO)
	}
	p.close("}")
}

func (p *printer) block(f Features, b Block) {
	p.open("{")
	p.line("ID: %d", b.ID)
	p.line("Offset: 0x%X", b.Offset)
	if len(b.CallSiteEnds) > 0 {
		p.line("Callsite End Offsets: %s", strings.Join(strings.Fields(fmt.Sprint(b.CallSiteEnds)), ", "))
	}
	if f.Has(BlockHash) {
		p.line("Hash: 0x%X", b.Hash)
	}
	p.line("Size: 0x%X", b.Size)
	for _, m := range []struct {
		name string
		bit  Metadata
	}{{"HasReturn", HasReturn}, {"HasTailCall", HasTailCall}, {"IsEHPad", IsEHPad}, {"CanFallThrough", CanFallThrough}, {"HasIndirectBranch", HasIndirectBranch}} {
		p.line("%s: %s", m.name, yesNo(b.Meta.Has(m.bit)))
	}
	p.close("}")
}

func (p *printer) pgo(f Features, g *PGO) {
	p.open("PGO analyses {")
	if f.Has(FuncEntryCount) {
		p.line("FuncEntryCount: %d", g.EntryCount)
	}
	if f.hasPGOBlocks() {
		p.open("PGO BB entries [")
		for _, b := range g.Blocks {
			p.pgoBlock(f, b)
		}
		p.close("]")
	}
	p.close("}")
}

func (p *printer) pgoBlock(f Features, b PGOBlock) {
	p.open("{")
	if f.Has(BlockFreq) {
		p.line("Frequency: %d", b.Freq)
	}
	if f.Has(PostLinkCFG) {
		p.line("PostLink Frequency: %d", b.PostLinkFreq)
	}
	if f.Has(BranchProb) {
		p.open("Successors [")
		for _, s := range b.Succs {
			p.open("{")
			p.line("ID: %d", s.ID)
			p.line("Probability: 0x%X", s.Prob)
			if f.Has(PostLinkCFG) {
				p.line("PostLink Probability: %d", s.PostLinkFreq)
			}
			p.close("}")
		}
		p.close("]")
	}
	p.close("}")
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// firstLineDiff shows where got and want first differ, by line.
func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: got %q, llvm-readobj-22 %q (%d lines, want %d)", i+1, gl, wl, len(g), len(w))
		}
	}
	return "same"
}
