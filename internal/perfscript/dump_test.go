package perfscript

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/testutil"
)

// dump writes every record of the input in a stable text form, then the
// stats.
func dump(w io.Writer, s *Scanner) error {
	if err := dumpRecords(w, s); err != nil {
		return err
	}
	st := s.Stats()
	fmt.Fprintf(w, "stats lines=%d skipped-lines=%d skipped-records=%d\n", st.Lines, st.SkippedLines, st.SkippedRecords)
	return nil
}

// dumpRecords writes every record of the input in a stable text form.
func dumpRecords(w io.Writer, s *Scanner) error {
	for s.Next() {
		r := s.Record()
		fmt.Fprintf(w, "%d %s", r.Line, r.Kind)
		if r.HasPID {
			fmt.Fprintf(w, " pid=%d tid=%d", r.PID, r.TID)
		}
		switch r.Kind {
		case record.KindMmap:
			m := r.Mmap
			fmt.Fprintf(w, " v2=%v addr=%#x len=%#x pgoff=%#x prot=%q path=%q", m.V2, m.Addr, m.Len, m.PgOff, m.Prot, m.Path)
		case record.KindFork, record.KindExit:
			fmt.Fprintf(w, " parent=%d:%d", r.ParentPID, r.ParentTID)
		case record.KindComm:
			fmt.Fprintf(w, " exec=%v comm=%q", r.Exec, r.Comm)
		case record.KindSample:
			smp := r.Sample
			fmt.Fprintf(w, " count=%d", smp.Count)
			if smp.HasIP {
				fmt.Fprintf(w, " ip=%#x", smp.IP)
			}
			if smp.Event != "" || smp.Period != 0 || smp.TimeNS != 0 {
				fmt.Fprintf(w, " event=%q period=%d time=%d", smp.Event, smp.Period, smp.TimeNS)
			}
			if smp.BadBranch {
				fmt.Fprint(w, " badbranch")
			}
			for _, b := range smp.Branches {
				fmt.Fprintf(w, " %#x->%#x", b.From, b.To)
			}
			for _, f := range smp.Frames {
				fmt.Fprintf(w, "\n\t%#x %q %q", f.Addr, f.Symbol, f.DSO)
				if f.Relative {
					fmt.Fprint(w, " relative")
				}
			}
		}
		fmt.Fprintln(w)
	}
	return s.Err()
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.script")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var got strings.Builder
			if err := dump(&got, NewScanner(in, f)); err != nil {
				fmt.Fprintf(&got, "error: %v\n", err)
			}
			golden := strings.TrimSuffix(f, ".script") + ".golden"
			if testutil.Update() {
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("%s differs from %s (run with -update):\n%s", f, golden, got.String())
			}
		})
	}
}
