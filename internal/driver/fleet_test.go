package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/binary"
)

// TestToAddressProfileIsSkipSymbolization checks the fleet's entry point
// against Run with --skip-symbolization: the same bytes, the build ids of
// the binaries counted, and the samples' counts.
func TestToAddressProfileIsSkipSymbolization(t *testing.T) {
	for _, tc := range []struct {
		name, bin string
		opts      Options
	}{
		{"lbr", "testdata/t.bin", Options{PerfScript: "testdata/t.script"}},
		{"call stacks", "../../testdata/callstack/forky", Options{PerfData: "../../testdata/callstack/forky.perf.data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Binaries, tc.opts.Quiet = []string{tc.bin}, true
			got, err := ToAddressProfile(context.Background(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			opts.SkipSymbolization, opts.Output = true, filepath.Join(t.TempDir(), "want.addr")
			if err := Run(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(opts.Output)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Data, want) {
				t.Errorf("%d bytes differ from --skip-symbolization's %d", len(got.Data), len(want))
			}
			if id := buildIDHex(t, tc.bin); !slices.Equal(got.BuildIDs, []string{id}) {
				t.Errorf("build ids %q, want [%s]", got.BuildIDs, id)
			}
			if s := got.Samples; s.Used == 0 || s.Used > s.Samples || s.Used+sum(s.Dropped) != s.Samples {
				t.Errorf("samples %+v: used and dropped do not add up", s)
			}
		})
	}
}

func buildIDHex(t *testing.T, path string) string {
	f, err := binary.Open(path, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.BuildIDHex()
}

func sum(m map[string]uint64) uint64 {
	var n uint64
	for _, v := range m {
		n += v
	}
	return n
}

// TestKeepRefusedUnsymbolized: with KeepRefused, an LBR unsymbolized
// profile asked for text and pprof writes the text and lists pprof as
// refused (the fleet's write of an LBR key); without it the run fails.
func TestKeepRefusedUnsymbolized(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "t.raw")
	bin := "testdata/t.bin"
	if err := Run(context.Background(), Options{PerfScript: "testdata/t.script", Binaries: []string{bin}, SkipSymbolization: true, Output: raw, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	opts := Options{UnsymbolizedProfile: raw, Binaries: []string{bin}, Format: "text", Output: filepath.Join(dir, "t.txt"),
		Also: []AlsoOutput{{Format: "pprof", Output: filepath.Join(dir, "t.pb.gz")}}, Quiet: true}
	if _, err := Convert(context.Background(), opts); err == nil {
		t.Error("pprof of LBR ranges was not refused")
	}
	opts.KeepRefused = true
	res, err := Convert(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Format != "text" || len(res.Refused) != 1 || res.Refused[0].Format != "pprof" {
		t.Errorf("files %+v, refused %v; want the text written and pprof refused", res.Files, res.Refused)
	}
}
