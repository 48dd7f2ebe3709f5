package driver

import (
	"bytes"
	"cmp"
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
	"github.com/profgen/profgen/internal/propeller"
	"github.com/profgen/profgen/internal/testutil"
)

// TestPropellerRebuild: testdata/programs/propeller.c built by clang-22
// (and clang-19) with -fbasic-block-address-map, traced exactly
// (tools/lbrgen under valgrind), converted by --format=propeller; the
// rebuild with the cc and ld profiles prints nothing, its functions are
// in the ld profile's order, and each hot function's section holds its
// cluster's blocks in order.
func TestPropellerRebuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and traces a program")
	}
	testutil.Tools(t, "valgrind", "objcopy", "go", "ld.lld-22")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	lbrgen := filepath.Join(t.TempDir(), "lbrgen")
	runTool(t, root, nil, "go", "build", "-o", lbrgen, "./tools/lbrgen")
	for _, cc := range []string{"clang-22", "clang-19"} {
		t.Run(cc, func(t *testing.T) {
			testutil.Tool(t, cc)
			propellerRebuild(t, root, lbrgen, cc)
		})
	}
}

func propellerRebuild(t *testing.T, root, lbrgen, cc string) {
	dir := t.TempDir()
	build := filepath.Join(root, "testdata", "programs", "build-propeller.sh")
	app := filepath.Join(dir, "app")
	runTool(t, dir, nil, build, app, cc)
	runTool(t, dir, nil, lbrgen, "-binary", app, "-period", "200", "-single", filepath.Join(dir, "single.script"),
		"-multi", filepath.Join(dir, "multi"), "-procs", "3", "-perfdata", "--", "20000")
	opts := Options{PerfScript: filepath.Join(dir, "single.script"), Binaries: []string{app}, Format: "propeller"}
	if cc == "clang-22" {
		opts.Propeller.Edges = true
	}
	out := filepath.Join(dir, "prof") + "/"
	convertPropeller(t, opts, out)
	ccProf, ldProf := filepath.Join(out, propellerCC), filepath.Join(out, propellerLD)
	relinked := filepath.Join(dir, "app.propeller")
	cmd := exec.Command(build, relinked, cc, "-fbasic-block-sections=list="+ccProf, "-Wl,--symbol-ordering-file="+ldProf)
	if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("the rebuild: %v\n%s", err, msg)
	}
	ld := readLines(t, ldProf)
	checkSymbolOrder(t, relinked, ld)
	checkClusters(t, relinked, ccProf)
	if !slices.Contains(ld, "main") || !slices.Contains(ld, "mix") || slices.Contains(ld, "never") {
		t.Errorf("ld profile %q: want main and mix, not never", ld)
	}
	checkMergedHosts(t, dir, app)
	checkWithLibc(t, dir, opts, out)
}

// checkWithLibc: with libc beside the program (no file of its own: no
// branch of lbrgen's trace counts in it, and it has no address map), the
// program gets its files named after it, the bytes of its profiles alone
// (in one).
func checkWithLibc(t *testing.T, dir string, opts Options, one string) {
	t.Helper()
	libc := "/lib/x86_64-linux-gnu/libc.so.6"
	if _, err := os.Stat(libc); err != nil {
		return
	}
	out := filepath.Join(dir, "two") + "/"
	var stderr bytes.Buffer
	opts.Binaries = append(opts.Binaries, libc)
	opts.Output, opts.Stderr = out, &stderr
	if err := Run(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	files, _ := os.ReadDir(out)
	if len(files) != 2 {
		t.Fatalf("%d files, want app's two", len(files))
	}
	for _, part := range []string{propellerCC, propellerLD} {
		if a, b := readLines(t, filepath.Join(out, "app."+part)), readLines(t, filepath.Join(one, part)); !slices.Equal(a, b) {
			t.Errorf("app.%s differs from the profile of app alone", part)
		}
	}
}

// convertPropeller converts opts into out; a Propeller output must list its two
// files.
func convertPropeller(t *testing.T, opts Options, out string) {
	t.Helper()
	var stderr bytes.Buffer
	opts.Output, opts.Stderr = out, &stderr
	res, err := Convert(context.Background(), opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var parts []string
	for _, f := range res.Files {
		parts = append(parts, f.Part)
	}
	if opts.Format == "propeller" && !slices.Equal(parts, []string{propellerCC, propellerLD}) {
		t.Errorf("Result.Files of parts %q, want the cc and ld profiles", parts)
	}
}

// checkMergedHosts: the processes of dir's multi.script, converted one
// by one into address profiles, merged, then converted to Propeller, give
// the bytes of the one-pass conversion of multi.script (perf script and
// perf.data).
func checkMergedHosts(t *testing.T, dir, app string) {
	t.Helper()
	opts := Options{Binaries: []string{app}, Format: "propeller"}
	var addrs []string
	each, _ := filepath.Glob(filepath.Join(dir, "multi.*.script"))
	for i, s := range each {
		a := filepath.Join(dir, fmt.Sprintf("host%d.addr", i))
		convertPropeller(t, Options{PerfScript: s, Binaries: []string{app}, SkipSymbolization: true}, a)
		addrs = append(addrs, a)
	}
	all := filepath.Join(dir, "all.addr")
	f, err := os.Create(all)
	if err != nil {
		t.Fatal(err)
	}
	if err := addrprof.MergeFiles(f, addrs); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	merged, onePass, data := opts, opts, opts
	merged.UnsymbolizedProfile = all
	onePass.PerfScript = filepath.Join(dir, "multi.script")
	data.PerfData = filepath.Join(dir, "multi.perf.data")
	want := filepath.Join(dir, "one")
	convertPropeller(t, onePass, want)
	for name, o := range map[string]Options{"merged": merged, "perf.data": data} {
		got := filepath.Join(dir, name)
		convertPropeller(t, o, got)
		for _, part := range []string{propellerCC, propellerLD} {
			if a, b := readLines(t, got+"."+part), readLines(t, want+"."+part); !slices.Equal(a, b) {
				t.Errorf("%s: %s differs from the one-pass conversion's", name, part)
			}
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// checkSymbolOrder checks that the symbols of the ld profile are at
// increasing addresses in bin.
func checkSymbolOrder(t *testing.T, bin string, order []string) {
	t.Helper()
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	syms, err := ef.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	addr := map[string]uint64{} // the first of a name's symbols (static functions of two files)
	for _, s := range syms {
		if a, ok := addr[s.Name]; !ok || s.Value < a {
			addr[s.Name] = s.Value
		}
	}
	for i, name := range order {
		if _, ok := addr[name]; !ok {
			t.Errorf("%s: no symbol %s", bin, name)
		} else if i > 0 && addr[name] <= addr[order[i-1]] {
			t.Errorf("%s: %s at %#x, before %s at %#x", bin, name, addr[name], order[i-1], addr[order[i-1]])
		}
	}
}

// checkClusters checks that each function of the cc profile has its
// cluster's blocks first in bin, in order, and no other block in its
// entry's section; the two static functions named helper are told apart
// by their modules.
func checkClusters(t *testing.T, bin, ccProf string) {
	t.Helper()
	f, err := os.Open(ccProf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	prof, err := propeller.ReadCC(f, ccProf)
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	funcs, err := bbaddrmap.Read(ef)
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := ef.Symbols()
	modules := 0
	for _, fn := range prof.Funcs {
		if fn.Module != "" {
			modules++
		}
		if !slices.ContainsFunc(funcs, func(m bbaddrmap.Func) bool {
			return slices.Equal(rangeIDs(m.Ranges[0]), fn.Clusters[0]) && slices.ContainsFunc(syms, func(s elf.Symbol) bool {
				return s.Name == fn.Names[0] && s.Value == m.Addr()
			})
		}) {
			t.Errorf("%s: no function %s with blocks %v", bin, fn.Names[0], fn.Clusters[0])
		}
	}
	if modules != 2 {
		t.Errorf("%d functions with a module, want the two helpers", modules)
	}
}

// rangeIDs are the IDs of a range's blocks in address order.
func rangeIDs(r bbaddrmap.Range) []uint32 {
	blocks := slices.Clone(r.Blocks)
	slices.SortStableFunc(blocks, func(a, b bbaddrmap.Block) int { return cmp.Compare(a.Offset, b.Offset) })
	ids := make([]uint32, len(blocks))
	for i, b := range blocks {
		ids[i] = b.ID
	}
	return ids
}

// TestPropellerRefusals: what --format=propeller cannot do is refused in
// one line, and nothing is written.
func TestPropellerRefusals(t *testing.T) {
	lbr := Options{PerfScript: lbrExampleScript, Binaries: []string{lbrExampleBinary}, Format: "propeller"}
	with := func(f func(*Options)) Options { o := lbr; f(&o); return o }
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"no address map", lbr, "-fbasic-block-address-map"},
		{"call stacks", Options{PerfScript: callstackDir + "forky.default-tasks.script", Binaries: []string{callstackDir + "forky"}, Format: "propeller"}, "needs LBR (perf record -b)"},
		{"standard output", with(func(o *Options) { o.Output = "-" }), "writes two files"},
		{"unknown version", with(func(o *Options) { o.Propeller.CCVersion = "v2" }), "--propeller-cc-version"},
		{"edges in v0", with(func(o *Options) { o.Propeller = PropellerOptions{CCVersion: "v0", Edges: true} }), "v0 has no edge counts"},
		{"flags without propeller", with(func(o *Options) { o.Format, o.Propeller.Edges = "text", true }), "apply to --format=propeller"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := tc.opts
			opts.Output = cmp.Or(opts.Output, filepath.Join(dir, "out"))
			opts.Stderr = &bytes.Buffer{}
			err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tc.want)
			}
			if files, _ := os.ReadDir(dir); len(files) > 0 {
				t.Errorf("%d files left: %s", len(files), files[0].Name())
			}
		})
	}
}

// TestPropellerPaths: the names of the two files.
func TestPropellerPaths(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		out, binary string
		nbins       int
		want        string
	}{
		{dir, "/x/app", 1, filepath.Join(dir, "cc_profile.txt")},
		{dir, "/x/app", 2, filepath.Join(dir, "app.cc_profile.txt")},
		{"out/%b", "/x/app", 2, "out/app.cc_profile.txt"},
		{"out/app", "/x/app", 1, "out/app.cc_profile.txt"},
		{"out/app", "/x/app", 2, ""},
	} {
		got, err := partPath(tc.out, tc.binary, propellerCC, tc.nbins)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("partPath(%s, %s, %d) = %q, %v; want %q", tc.out, tc.binary, tc.nbins, got, err, tc.want)
		}
	}
}
