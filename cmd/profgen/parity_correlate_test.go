package main

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// Raws whose records are in the binary (-mllvm -profile-correlate=binary
// or =debug-info), as LLVM 22's compiler-rt tests make them
// (instrprof-debug-info-correlate*.c, instrprof-binary-correlate*.c,
// instrprof-mcdc-correlation.c), with a program of our own: {corr:NAME}
// is a binary or raw built and run once per test run with clang-22
// (corrBuilds), {corr:dir} a directory of the binaries by build id
// (DIR/.build-id/xx/rest.debug) and {corr:srv} a debuginfod server's
// layout (SRV/buildid/ID/debuginfo) read through a file:// URL.

var correlationRows = []parityRow{
	{name: "merge --debug-info (DWARF 5)", args: []string{"merge", "-o", "{out}", "--debug-info={corr:dbg}", "{corr:dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info (DWARF 4)", args: []string{"merge", "-o", "{out}", "--debug-info={corr:d4}", "{corr:d4.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, entry coverage", args: []string{"merge", "-o", "{out}", "--debug-info={corr:cov}", "{corr:cov.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, two raws, to text", args: []string{"merge", "--text", "-o", "{out}", "--debug-info", "{corr:dbg}", "{corr:dbg.profraw}", "{corr:dbg-2.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, line tables only: warnings", args: []string{"merge", "-o", "{out}", "--debug-info={corr:glt}", "--max-debug-info-correlation-warnings=2", "{corr:glt.profraw}"}, compare: sameWarnings, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, no warning limit", args: []string{"merge", "-o", "{out}", "--debug-info={corr:glt}", "--max-debug-info-correlation-warnings=0", "{corr:glt.profraw}"}, compare: sameWarnings, tool: "llvm-profdata-22"},
	{name: "merge --binary-file, raw of the stripped binary", args: []string{"merge", "-o", "{out}", "--binary-file={corr:bin}", "{corr:bin-stripped.profraw}", "{corr:bin.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --binary-file, MC/DC", args: []string{"merge", "-o", "{out}", "--binary-file={corr:mcdc-bin}", "{corr:mcdc-bin.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, MC/DC", args: []string{"merge", "-o", "{out}", "--debug-info={corr:mcdc-dbg}", "{corr:mcdc-dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --correlate=debug-info --debug-file-directory", args: []string{"merge", "-o", "{out}", "--correlate=debug-info", "--debug-file-directory", "{corr:dir}", "{corr:dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --correlate=binary --debug-file-directory", args: []string{"merge", "-o", "{out}", "--correlate=binary", "--debug-file-directory={corr:dir}", "{corr:bin-stripped.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debuginfod --correlate=debug-info", args: []string{"merge", "-o", "{out}", "--debuginfod", "--correlate=debug-info", "{corr:dbg.profraw}", "{corr:dbg-2.profraw}"},
		env: debuginfodEnv, tool: "llvm-profdata-22"},
	{name: "merge --debuginfod --correlate=binary", args: []string{"merge", "-o", "{out}", "--debuginfod", "--correlate=binary", "{corr:bin-stripped.profraw}"},
		env: debuginfodEnv, tool: "llvm-profdata-22"},
	{name: "--correlate without a directory or --debuginfod", args: []string{"merge", "-o", "{out}", "--correlate=binary", "{corr:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-file-directory without --correlate", args: []string{"merge", "-o", "{out}", "--debug-file-directory={corr:dir}", "{corr:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debuginfod without --correlate", args: []string{"merge", "-o", "{out}", "--debuginfod", "{corr:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--binary-file with --debug-file-directory", args: []string{"merge", "-o", "{out}", "--binary-file={corr:bin}", "--correlate=binary", "--debug-file-directory={corr:dir}", "{corr:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info with --binary-file", args: []string{"merge", "-o", "{out}", "--debug-info={corr:dbg}", "--binary-file={corr:bin}", "{corr:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--correlate: build id missing from the directory", args: []string{"merge", "-o", "{out}", "--correlate=debug-info", "--debug-file-directory={corr:empty}", "{corr:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info with a raw of its own records", args: []string{"merge", "-o", "{out}", "--debug-info={corr:dbg}", "{corr:normal.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info of a binary without probes", args: []string{"merge", "-o", "{out}", "--debug-info={corr:normal}", "{corr:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "show --debug-info", args: []string{"show", "--debug-info={corr:dbg}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info, a profile given", args: []string{"show", "--debug-info={corr:d4}", "--all-functions", "{corr:d4.profraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=yaml", args: []string{"show", "--debug-info={corr:dbg}", "--show-format=yaml"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=yaml (DWARF 4, coverage)", args: []string{"show", "--debug-info={corr:cov}", "--show-format=yaml"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --detailed-summary --show-prof-sym-list", args: []string{"show", "--debug-info={corr:glt}", "--detailed-summary", "--show-prof-sym-list"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=json", args: []string{"show", "--debug-info={corr:dbg}", "--show-format=json"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "show --debug-info of a binary without probes", args: []string{"show", "--debug-info={corr:normal}"}, compare: bothFail, tool: "llvm-profdata-22"},
}

// debuginfodEnv points the debuginfod client at {corr:srv}, with a cache
// of each tool's own.
var debuginfodEnv = []string{"DEBUGINFOD_URLS=file://{corr:srv}", "DEBUGINFOD_CACHE_PATH={out}.cache"}

// corrBuild is one build of the correlation program and how its raws are
// made.
type corrBuild struct {
	flags   []string
	buildID string // -Wl,--build-id=0x…; "" for the linker's
	runs    int    // raws NAME.profraw, NAME-2.profraw, …
	src     string // corrMain (default) or corrMCDC
}

var corrBuilds = map[string]corrBuild{
	"normal":   {flags: []string{"-fprofile-generate", "-mllvm", "-disable-vp=true"}, runs: 1},
	"dbg":      {flags: []string{"-fprofile-generate", "-g", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, buildID: "12345678", runs: 2},
	"d4":       {flags: []string{"-fprofile-generate", "-g", "-gdwarf-4", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, runs: 1},
	"cov":      {flags: []string{"-fprofile-generate", "-g", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-pgo-function-entry-coverage", "-mllvm", "-disable-vp=true"}, runs: 1},
	"glt":      {flags: []string{"-fprofile-generate", "-gline-tables-only", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, runs: 1},
	"bin":      {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-mllvm", "-profile-correlate=binary"}, buildID: "12345679", runs: 1},
	"mcdc-bin": {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-fcoverage-mcdc", "-mllvm", "-profile-correlate=binary"}, runs: 1, src: corrMCDC},
	"mcdc-dbg": {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-fcoverage-mcdc", "-g", "-mllvm", "-profile-correlate=debug-info"}, runs: 1, src: corrMCDC},
}

const corrMain = `
int foo(int);
static int helper(int x) { return x % 3 ? x : -x; }
int bar(int x) { return x > 3 ? x * 2 : x + 1; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) s += foo(i) + bar(i) + helper(i);
  return s == 12345;
}
int foo(int x) { if (x & 1) return -x; return x / 2; }
`

const corrMCDC = `
int test(int a, int b, int c) { if ((a && b) || c) return 1; return 0; }
int main(void) { int s = 0; for (int i = 0; i < 8; i++) s += test(i & 1, i & 2, i & 4); return s == 100; }
`

var (
	corrOnce sync.Once
	corrDir  string
	corrErr  error
)

// corrPath is the path of {corr:NAME}, building everything on first use.
func corrPath(t *testing.T, name string) string {
	testutil.Tools(t, "clang-22", "llvm-strip-22")
	corrOnce.Do(func() { corrDir, corrErr = buildCorrelation() })
	if corrErr != nil {
		t.Fatal(corrErr)
	}
	return filepath.Join(corrDir, name)
}

func buildCorrelation() (string, error) {
	dir, err := os.MkdirTemp("", "corr")
	if err != nil {
		return "", err
	}
	for name, b := range corrBuilds {
		if err := b.build(dir, name); err != nil {
			return "", err
		}
	}
	steps := [][]string{
		{"llvm-strip-22", "bin", "-o", "bin-stripped"},
		{"env", "LLVM_PROFILE_FILE=bin-stripped.profraw", "./bin-stripped"},
		{"mkdir", "-p", "dir/.build-id/12", "srv/buildid/12345678", "srv/buildid/12345679", "empty"},
		{"cp", "dbg", "dir/.build-id/12/345678.debug"},
		{"cp", "bin", "dir/.build-id/12/345679.debug"},
		{"cp", "dbg", "srv/buildid/12345678/debuginfo"},
		{"cp", "bin", "srv/buildid/12345679/debuginfo"},
	}
	return dir, runAll(dir, steps)
}

// build compiles and runs one build in dir.
func (b corrBuild) build(dir, name string) error {
	src := name + ".c"
	if err := os.WriteFile(filepath.Join(dir, src), []byte(cmp.Or(b.src, corrMain)), 0o644); err != nil {
		return err
	}
	cc := append([]string{"clang-22", "-o", name, src}, b.flags...)
	if b.buildID != "" {
		cc = append(cc, "-Wl,--build-id=0x"+b.buildID)
	}
	steps := [][]string{cc}
	for i := 1; i <= b.runs; i++ {
		raw := name + ".profraw"
		if i > 1 {
			raw = name + "-" + string(rune('0'+i)) + ".profraw"
		}
		steps = append(steps, []string{"env", "LLVM_PROFILE_FILE=" + raw, "./" + name})
	}
	return runAll(dir, steps)
}

// runAll runs commands in dir; a program's exit status is its own (the
// programs return 0).
func runAll(dir string, steps [][]string) error {
	for _, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(s, " "), err, out)
		}
	}
	return nil
}
