package testutil

import (
	"testing"
	"time"
)

// TestLimited: a test body allocating 64 MiB passes in a child limited to
// 1 GiB of address space (one allocating 2 GiB fails there, by hand).
func TestLimited(t *testing.T) {
	t.Run("sub test", func(t *testing.T) {
		if !Limited(t, 1<<30, 20*time.Second) {
			return
		}
		b := make([]byte, 64<<20)
		b[len(b)-1] = 1
	})
}

func TestModuleRoot(t *testing.T) {
	if _, err := ModuleRoot(); err != nil {
		t.Fatal(err)
	}
}
