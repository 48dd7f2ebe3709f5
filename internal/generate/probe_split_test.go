package generate

import (
	"os/exec"
	"testing"
)

// TestProbeSplitMatchesLLVMProfgen: the same on a pseudo-probe binary
// whose functions -fsplit-machine-functions split into .cold parts (the
// probes of the split-off code get garbled addresses in both tools: their
// deltas cross sections).
func TestProbeSplitMatchesLLVMProfgen(t *testing.T) {
	ref, err := exec.LookPath("llvm-profgen-19")
	if err != nil {
		t.Skip("llvm-profgen-19 not installed")
	}
	probeMatchesLLVMProfgen(t, ref, "testdata/cxx-probe-split.bin")
}
