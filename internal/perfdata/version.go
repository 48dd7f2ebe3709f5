package perfdata

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/quote"
)

// Version is a perf version, major.minor.
type Version struct{ Major, Minor int }

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	return v.Minor < o.Minor
}

// ParseVersion reads the output of `perf version`, e.g.
// "perf version 6.1.187" or "perf version 5.10.g1234abcd".
func ParseVersion(s string) (Version, error) {
	f := strings.Fields(s)
	if len(f) < 3 || f[0] != "perf" || f[1] != "version" {
		return Version{}, fmt.Errorf("unrecognized perf version output %s", quote.String(strings.TrimSpace(s)))
	}
	parts := strings.SplitN(f[2], ".", 3)
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("unrecognized perf version %s", quote.String(f[2]))
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return Version{}, fmt.Errorf("unrecognized perf version %s", quote.String(f[2]))
	}
	return Version{major, minor}, nil
}

func checkVersion(ctx context.Context, perf string) error {
	out, err := exec.CommandContext(ctx, perf, "version").Output()
	if err != nil {
		return fmt.Errorf("running %s version: %w", perf, err)
	}
	v, err := ParseVersion(string(out))
	if err != nil {
		return err
	}
	if v.Less(MinVersion) {
		return fmt.Errorf("perf %s is too old: profgen needs perf %s or newer", v, MinVersion)
	}
	return nil
}
