package perfdata

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/perfdatafile"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/perfsyms"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/testutil"
)

// flatRecord is a record in comparable form; symbols are compared only
// when withSymbols.
func flatRecord(r *record.Record, withSymbols bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v pid=%v:%d/%d mmap=%+v parent=%d/%d exec=%v comm=%q", r.Kind, r.HasPID, r.PID, r.TID, r.Mmap, r.ParentPID, r.ParentTID, r.Exec, r.Comm)
	s := &r.Sample
	if r.Kind == record.KindSample {
		fmt.Fprintf(&b, " count=%d ip=%v:%#x event=%q period=%d time=%d bad=%v", s.Count, s.HasIP, s.IP, s.Event, s.Period, s.TimeNS, s.BadBranch)
		if withSymbols {
			fmt.Fprintf(&b, " ipsym=%q", s.IPSymbol)
		}
		fmt.Fprintf(&b, " ipdso=%q", s.IPDSO)
		for _, br := range s.Branches {
			fmt.Fprintf(&b, " %#x->%#x", br.From, br.To)
		}
		for _, f := range s.Frames {
			fmt.Fprintf(&b, "\n\t%#x %q rel=%v", f.Addr, f.DSO, f.Relative)
			if withSymbols {
				fmt.Fprintf(&b, " %q", f.Symbol)
			}
		}
	}
	return b.String()
}

// perfScriptRecords runs perf script as the driver would and parses it.
func perfScriptRecords(t *testing.T, path string, c Content) *perfscript.Scanner {
	t.Helper()
	r, err := Open(context.Background(), path, ScriptArgs(c), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return perfscript.NewScanner(r, path)
}

// compareRecords reads both sources to the end and reports the first
// differences.
func compareRecords(t *testing.T, want, got record.Source, withSymbols bool) int {
	t.Helper()
	n, bad := 0, 0
	for {
		w, g := want.Next(), got.Next()
		if w != g {
			t.Errorf("record %d: perf script has one: %v, native: %v (errors %v, %v)", n+1, w, g, want.Err(), got.Err())
			return n
		}
		if !w {
			break
		}
		n++
		ws, gs := flatRecord(want.Record(), withSymbols), flatRecord(got.Record(), withSymbols)
		if ws != gs {
			bad++
			if bad <= 3 {
				t.Errorf("record %d (perf script line %d) differs:\n%s", n, want.Record().Line, lineDiff(ws, gs))
			}
		}
	}
	if err := want.Err(); err != nil {
		t.Errorf("perf script: %v", err)
	}
	if err := got.Err(); err != nil {
		t.Errorf("native: %v", err)
	}
	if bad > 0 {
		t.Errorf("%d of %d records differ", bad, n)
	}
	return n
}

// testRecordings are the perf.data files the tests make, and recordings
// made here with perf: compressed (-z) and pipe mode (-o -).
func testRecordings(t *testing.T) []string {
	files := []string{forkyData}
	if dir := os.Getenv("PROFGEN_TESTDATA"); dir != "" {
		for _, pat := range []string{"*/*.perf.data", "*/*/*.perf.data"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			files = append(files, m...)
		}
	}
	return append(files, recordNow(t)...)
}

// recordNow records a small shell loop compressed and in pipe mode; none
// when perf cannot record here.
func recordNow(t *testing.T) []string {
	if _, err := exec.LookPath("perf"); err != nil {
		return nil
	}
	dir := t.TempDir()
	work := "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls / >/dev/null & wait"
	var out []string
	for _, rec := range []struct {
		name string
		args []string
	}{
		{"compressed.perf.data", []string{"-z", "-o", "compressed.perf.data"}},
		{"compressed-small.perf.data", []string{"-z", "--mmap-pages", "4", "-c", "50000", "-o", "compressed-small.perf.data"}},
		{"plain.perf.data", []string{"-o", "plain.perf.data"}},
		{"two-events.perf.data", []string{"-e", "task-clock", "-c", "200000", "-o", "two-events.perf.data"}},
	} {
		args := append([]string{"record", "-q", "-e", "cpu-clock", "-g"}, rec.args...)
		cmd := exec.Command("perf", append(args, "--", "sh", "-c", work)...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Logf("perf record %v: %v\n%s", rec.args, err, b)
			return out
		}
		out = append(out, filepath.Join(dir, rec.name))
	}
	pipe := filepath.Join(dir, "pipe.perf.data")
	cmd := exec.Command("sh", "-c", "perf record -q -e cpu-clock -g -o - -- sh -c '"+work+"' > "+pipe)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Logf("perf record -o -: %v\n%s", err, b)
		return out
	}
	return append(out, pipe)
}

// TestNativeEqualsPerfScript: on every recording, the native reader yields
// the records the perf script parser reads from perf script's output.
// perf runs with a home of its own, so an empty build-id cache
// ($HOME/.debug): a binary another test recorded lands in ~/.debug, where
// perf script would name the frames of a checked-in recording whose
// binary is gone.
func TestNativeEqualsPerfScript(t *testing.T) {
	testutil.Tool(t, "perf")
	t.Setenv("HOME", t.TempDir())
	for _, path := range testRecordings(t) {
		name := strings.TrimPrefix(path, os.Getenv("PROFGEN_TESTDATA"))
		t.Run(name, func(t *testing.T) {
			c, err := ReadContent(path)
			if err != nil {
				t.Fatal(err)
			}
			nat, err := OpenNative(path, c)
			if err != nil {
				t.Fatal(err)
			}
			defer nat.Close()
			nat.SetSymbolNamer(perfsyms.New(nat.BuildIDs()))
			// perfsyms reads symbols through internal/binary, which opens
			// x86-64 ELF only until its arm64 decoder lands: the symbols
			// of the arm64 recordings are not compared.
			withSymbols := !strings.Contains(path, "/arm64/")
			n := compareRecords(t, perfScriptRecords(t, path, c), nat, withSymbols)
			t.Logf("%d records, %+v", n, nat.NativeStats())
		})
	}
}

// lineDiff shows the lines of two records that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "perf script: %s\nnative:      %s\n", wl, gl)
		}
	}
	return b.String()
}

func FuzzNative(f *testing.F) {
	for _, p := range []string{forkyData, "../perfdatafile/testdata/compressed.perf.data"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 6000)], true)
	}
	f.Fuzz(func(t *testing.T, data []byte, lbr bool) {
		r, err := perfdatafile.OpenBytes(data, "fuzz")
		if err != nil {
			return
		}
		r.MaxDecompressed = 1 << 20
		n, err := NewNative(r, Content{BranchStack: lbr, Callchain: !lbr})
		if err != nil {
			return
		}
		defer n.Close()
		for n.Next() {
			if rec := n.Record(); rec.Kind == record.KindSample && len(rec.Sample.Frames) > maxStack {
				t.Fatalf("%d frames", len(rec.Sample.Frames))
			}
		}
	})
}

// countingNamer is a perfsyms.Namer that counts the prefetches asked.
type countingNamer struct {
	*perfsyms.Namer
	prefetches int
}

func (n *countingNamer) Prefetch(dso string, kernel bool) {
	n.prefetches++
	n.Namer.Prefetch(dso, kernel)
}

// TestDeferChainSymbols: call-chain frames left unnamed, named afterwards
// by their DSO and address, have the names the reader gives them, and
// nothing is loaded when mappings appear.
func TestDeferChainSymbols(t *testing.T) {
	for _, path := range testRecordings(t) {
		c, err := ReadContent(path)
		if err != nil || c.BranchStack || strings.Contains(path, "/arm64/") {
			continue
		}
		t.Run(strings.TrimPrefix(path, os.Getenv("PROFGEN_TESTDATA")), func(t *testing.T) {
			eager, lazy := openNamed(t, path, c, false), openNamed(t, path, c, true)
			names := lazy.names.(*countingNamer)
			frames := 0
			for eager.Next() {
				if !lazy.Next() {
					t.Fatal("deferred: fewer records")
				}
				want, got := eager.Record().Sample.Frames, lazy.Record().Sample.Frames
				for i, f := range got {
					if f.Symbol == "" {
						frames++
						if f.Symbol = names.Name(f.DSO, record.IsKernelDSO(f.DSO), f.Addr); f.Symbol == "" {
							f.Symbol = "[unknown]"
						}
					}
					if f != want[i] {
						t.Fatalf("record %d frame %d: deferred and named %+v, named %+v", eager.n, i, f, want[i])
					}
				}
			}
			if frames == 0 || names.prefetches != 0 {
				t.Errorf("%d frames deferred, %d prefetches", frames, names.prefetches)
			}
		})
	}
}

func openNamed(t *testing.T, path string, c Content, deferred bool) *Native {
	t.Helper()
	n, err := OpenNative(path, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	n.SetSymbolNamer(&countingNamer{Namer: perfsyms.New(n.BuildIDs())})
	if deferred {
		n.DeferChainSymbols()
	}
	return n
}
