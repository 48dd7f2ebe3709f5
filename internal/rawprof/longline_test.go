package rawprof

import (
	"strings"
	"testing"
)

// TestLongLine: a line over the limit is reported with the file and line,
// not as bufio.Scanner's "token too long".
func TestLongLine(t *testing.T) {
	in := "1\n" + strings.Repeat("1", maxLine+1) + "\n"
	_, err := Read(strings.NewReader(in), "x.raw", 0)
	if err == nil || !strings.HasPrefix(err.Error(), "x.raw:2: line longer than") || len(err.Error()) > 300 {
		t.Errorf("error %v", err)
	}
}
