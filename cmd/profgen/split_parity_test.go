package main

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

// The split-DWARF acceptance tests run on testdata/split (its build.sh):
// one program built with -gsplit-dwarf (DWARF 5 and 4) and without, with
// the same code, and LBR, hybrid and call-stack traces of it. The
// binaries' DW_AT_comp_dir is ".", so each test lays the files out in a
// directory of its own and works there.

// splitLayout is where a test puts the split build's files: binary, the
// .dwo files, the package (each "" when left out), relative to the test's
// working directory.
type splitLayout struct {
	name    string
	binary  string
	dwos    []string // of a.dwo and b.dwo, those laid out beside the binary
	dwp     string
	dwpFrom string   // the file copied as dwp: prog.dwp unless set
	debug   string   // a copy of the binary given as --debug-binary
	args    []string // more arguments, for profgen and llvm-profgen alike
	missing bool     // a split unit is missing: the profile is not the plain build's
}

var splitLayouts = []splitLayout{
	{name: "dwo files", binary: "prog", dwos: []string{"a.dwo", "b.dwo"}},
	{name: "default dwp", binary: "prog", dwp: "prog.dwp"},
	{name: "dwp over dwo files", binary: "prog", dwos: []string{"a.dwo", "b.dwo"}, dwp: "prog.dwp"},
	{name: "--dwp elsewhere", binary: "bin/prog", dwp: "pkg/other.dwp", args: []string{"--dwp=pkg/other.dwp"}},
	{name: "--dwp missing: dwo files", binary: "prog", dwos: []string{"a.dwo", "b.dwo"}, args: []string{"--dwp=nosuch.dwp"}},
	{name: "missing dwo", binary: "prog", dwos: []string{"a.dwo"}, missing: true},
	{name: "missing dwo, detailed", binary: "prog", dwos: []string{"a.dwo"}, missing: true, args: []string{"--show-detailed-warning"}},
	{name: "no split unit at all", binary: "prog", missing: true},
	// Any ELF file opens as a package, as in LLVM: the .dwo files beside
	// are then not read.
	{name: "dwp without units", binary: "prog", dwos: []string{"a.dwo", "b.dwo"}, dwp: "prog.dwp", dwpFrom: "prog", missing: true},
	// The default package is the DWARF file's path with ".dwp".
	{name: "--debug-binary, its dwp", binary: "prog", debug: "dbg/prog.debug", dwp: "dbg/prog.debug.dwp"},
	{name: "--debug-binary, the binary's dwp", binary: "prog", debug: "dbg/prog.debug", dwp: "prog.dwp", missing: true},
}

// splitFixture is the absolute path of a file of testdata/split.
func splitFixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata/split", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// layOut copies the files of the build of DWARF version dir (dwarf4,
// dwarf5) into a new working directory as l says, and moves there.
func (l splitLayout) layOut(t *testing.T, dir string) {
	t.Helper()
	src := splitFixture(t, dir)
	work := t.TempDir()
	copyTo := func(from, to string) {
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		to = filepath.Join(work, to)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("prog", l.binary)
	for _, d := range l.dwos {
		copyTo(d, d)
	}
	if l.dwp != "" {
		copyTo(cmp.Or(l.dwpFrom, "prog.dwp"), l.dwp)
	}
	if l.debug != "" {
		copyTo("prog", l.debug)
	}
	t.Chdir(work)
}

// splitInputs are the LBR and hybrid traces, each with the output format
// compared. From hybrid samples profgen prints none of llvm-profgen's
// warnings but those about loading the DWARF (dwarfWarningsOnly).
var splitInputs = []struct {
	script, format    string
	dwarfWarningsOnly bool
}{
	{"lbr.script", "text", false},
	{"lbr.script", "extbinary", false},
	{"hybrid.script", "text", true},
}

// TestSplitDWARFParity: for every layout of the split build's files, and
// for DWARF 5 and 4, profgen's profile of the LBR and hybrid traces is
// llvm-profgen-19's, warnings included; and where every split unit is
// found, it is the profile of the program built without -gsplit-dwarf.
func TestSplitDWARFParity(t *testing.T) {
	testutil.Tool(t, "llvm-profgen-19")
	for _, input := range splitInputs {
		plain := splitPlainProfile(t, input.script, input.format)
		script := splitFixture(t, input.script)
		for _, dir := range []string{"dwarf5", "dwarf4"} {
			for _, l := range splitLayouts {
				t.Run(dir+"/"+l.name+"/"+input.script+"/"+input.format, func(t *testing.T) {
					l.layOut(t, dir)
					args := append([]string{"--binary=" + l.binary, "--perfscript=" + script, "--format=" + input.format}, l.args...)
					if l.debug != "" {
						args = append(args, "--debug-binary="+l.debug)
					}
					ours, theirs := filepath.Join(t.TempDir(), "ours"), filepath.Join(t.TempDir(), "theirs")
					_, oErr, err := runInProcess(append(args, "-o", ours))
					_, lErr, lerr := runRef("llvm-profgen-19", append(args, "-o", theirs))
					if err != nil || lerr != nil {
						t.Fatalf("profgen: %v\n%s\nllvm-profgen-19: %v\n%s", err, oErr, lerr, lErr)
					}
					got := readFile(t, ours)
					if !bytes.Equal(got, readFile(t, theirs)) {
						t.Errorf("profile differs from llvm-profgen-19's:\n%s\n---\n%s", llvmRender(t, ours), llvmRender(t, theirs))
					}
					a, b := llvmWarnings(oErr), llvmWarnings(lErr)
					if input.dwarfWarningsOnly {
						a, b = dwarfWarnings(a), dwarfWarnings(b)
					}
					if a != b {
						t.Errorf("warnings differ:\n%s\n--- llvm-profgen-19:\n%s", a, b)
					}
					if l.missing != strings.Contains(oErr, "DWO debug information was not loaded") {
						t.Errorf("missing split units warned %v, want %v:\n%s", !l.missing, l.missing, oErr)
					}
					if !l.missing && !bytes.Equal(got, plain) {
						t.Errorf("profile differs from the plain build's")
					}
				})
			}
		}
	}
}

// dwarfWarnings are the lines of warnings about loading the DWARF.
func dwarfWarnings(warnings string) string {
	var out []string
	for _, l := range strings.Split(warnings, "\n") {
		if strings.Contains(l, "DWO") || strings.Contains(l, "DWARF") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// splitPlainProfile is profgen's profile of the plain build.
func splitPlainProfile(t *testing.T, script, format string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "plain")
	if _, stderr, err := runInProcess([]string{"--binary=" + splitFixture(t, "plain/prog"), "--perfscript=" + splitFixture(t, script), "--format=" + format, "-o", out}); err != nil {
		t.Fatalf("plain build: %v\n%s", err, stderr)
	}
	return readFile(t, out)
}

// TestSplitDWARFCallStacks: from call-stack samples (perf record -g, which
// llvm-profgen does not read), profgen's sample profile and pprof of the
// split build, its units read from .dwo files or the package, are those of
// the plain build (pprof: but for the binary's path and build ID).
func TestSplitDWARFCallStacks(t *testing.T) {
	script := splitFixture(t, "stack.script")
	run := func(binary, format string) []byte {
		out := filepath.Join(t.TempDir(), "out")
		if _, stderr, err := runInProcess([]string{"--binary=" + binary, "--perfscript=" + script, "--format=" + format, "-o", out}); err != nil {
			t.Fatalf("%s: %v\n%s", binary, err, stderr)
		}
		if format != "pprof" {
			return readFile(t, out)
		}
		p, err := profile.Parse(bytes.NewReader(readFile(t, out)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.Mapping {
			m.BuildID, m.File = "", filepath.Base(m.File)
		}
		return []byte(p.String())
	}
	for _, format := range []string{"text", "pprof"} {
		want := run(splitFixture(t, "plain/prog"), format)
		for _, dir := range []string{"dwarf5", "dwarf4"} {
			for _, l := range splitLayouts[:2] {
				t.Run(dir+"/"+l.name+"/"+format, func(t *testing.T) {
					l.layOut(t, dir)
					if got := run(l.binary, format); !bytes.Equal(got, want) {
						t.Errorf("differs from the plain build's:\n%s\n--- plain:\n%s", got, want)
					}
				})
			}
		}
	}
}
