package sampleprof

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestLLVMProfgenOutputs runs llvm-profgen-19 on the LBR traces of
// `make testdata` ($PROFGEN_TESTDATA/lbr/<prog>/single.script) in its three
// formats, then checks that profgen reads each to the same profile and
// writes that profile back byte for byte as llvm-profgen-19 did.
func TestLLVMProfgenOutputs(t *testing.T) {
	scripts, _ := filepath.Glob(filepath.Join(testutil.DataDir(t, "lbr"), "*", "single.script"))
	if len(scripts) == 0 {
		t.Skip("no LBR traces in the test data (make testdata)")
	}
	llvmProfgen := testutil.Tool(t, "llvm-profgen-19")
	for _, script := range scripts {
		t.Run(filepath.Base(filepath.Dir(script)), func(t *testing.T) {
			checkProfgenOutputs(t, llvmProfgen, script)
		})
	}
}

func checkProfgenOutputs(t *testing.T, llvmProfgen, script string) {
	out := map[Format][]byte{}
	for _, f := range []Format{FormatText, FormatBinary, FormatExtBinary} {
		path := filepath.Join(t.TempDir(), "prof")
		cmd := exec.Command(llvmProfgen, "--perfscript", script, "--binary",
			filepath.Join(filepath.Dir(script), "binary"), "--format", f.String(), "-o", path)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	text := mustRead(t, out[FormatText])
	ext := mustRead(t, out[FormatExtBinary])
	text.FSDiscriminators = ext.FSDiscriminators // the text format has no room for it
	for f, want := range out {
		if got := encode(t, text, f, WriteOptions{}); !bytes.Equal(got, want) {
			t.Errorf("%v written from llvm-profgen-19's text differs from its %v output", f, f)
		}
		if got := encode(t, mustRead(t, want), FormatText, WriteOptions{}); !bytes.Equal(got, out[FormatText]) {
			t.Errorf("llvm-profgen-19's %v output reads differently from its text output", f)
		}
	}
}
