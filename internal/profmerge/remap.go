package profmerge

import (
	"fmt"
	"os"
	"strings"
)

// readRemapping reads llvm-profdata merge's --remapping-file: one
// "old_symbol new_symbol" pair a line, blank lines and '#' comments
// skipped. It returns the renaming function, nil without a file.
func readRemapping(path string) (func(string) string, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--remapping-file: %w", err)
	}
	defer f.Close()
	table := map[string]string{}
	err = scanLines(path, f, func(n int, line string) error {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			return nil
		}
		old, repl, _ := strings.Cut(line, " ")
		if old == "" || repl == "" || strings.Contains(repl, " ") {
			return fmt.Errorf("%s:%d: unexpected line in remapping file: expected 'old_symbol new_symbol'", path, n)
		}
		if _, dup := table[old]; !dup {
			table[old] = repl
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func(name string) string {
		if r, ok := table[name]; ok {
			return r
		}
		return name
	}, nil
}
