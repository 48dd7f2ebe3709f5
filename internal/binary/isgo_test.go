package binary

import (
	"os"
	"testing"
)

// TestIsGo: a binary Go's toolchain linked (this test's own executable)
// is told from C binaries, stripped or not.
func TestIsGo(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want bool
	}{
		{self, true},
		{"testdata/clang-pie.elf", false},
		{"testdata/clang-pie-stripped.elf", false},
		{"testdata/arm64-pie.elf", false},
	} {
		f, err := Open(tt.path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.IsGo(); got != tt.want {
			t.Errorf("%s: IsGo() = %v, want %v", tt.path, got, tt.want)
		}
		f.Close()
	}
}
