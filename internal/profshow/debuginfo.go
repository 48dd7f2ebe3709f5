package profshow

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof/raw"
)

// DebugInfoOptions are show's flags for a binary built with -g -mllvm
// -profile-correlate=debug-info: llvm-profdata show --debug-info lists
// what the binary's DWARF holds instead of showing a profile.
type DebugInfoOptions struct {
	Path        string // --debug-info
	MaxWarnings int    // --max-debug-info-correlation-warnings (0: no limit)
}

// showDebugInfo writes, as llvm-profdata-22 does, the number of functions
// with probes in the DWARF (with --show-prof-sym-list their names, with
// --detailed-summary the counters' size), or with --show-format=yaml every
// probe.
func showDebugInfo(w io.Writer, opts Options) error {
	if opts.LLVM.ShowFormat == "json" {
		return errors.New("JSON output is not supported for debug info correlation")
	}
	info, err := raw.ReadDebugInfo(opts.DebugInfo.Path, opts.DebugInfo.MaxWarnings)
	if info != nil {
		for _, msg := range info.Warnings {
			fmt.Fprintln(opts.stderr(), "warning: "+msg)
		}
	}
	if err != nil {
		return err
	}
	if opts.LLVM.ShowFormat == "yaml" {
		return writeProbesYAML(w, info.Probes)
	}
	if opts.LLVM.ShowProfSymList {
		names := make([]string, len(info.Probes))
		for i, p := range info.Probes {
			names[i] = p.Name
		}
		slices.Sort(names)
		for _, name := range slices.Compact(names) {
			fmt.Fprintln(w, name)
		}
	}
	if opts.LLVM.DetailedSummary {
		fmt.Fprintf(w, "Counters section size: 0x%x bytes\n", info.CountersSize)
	}
	_, err = fmt.Fprintf(w, "Found %d functions\n", len(info.Probes))
	return err
}

// writeProbesYAML writes the probes as LLVM's YAML writer does: keys
// padded to 16 columns, hexadecimal in upper case, optional fields left
// out when unknown.
func writeProbesYAML(w io.Writer, probes []raw.Probe) error {
	var b strings.Builder
	b.WriteString("---\nProbes:\n")
	for _, p := range probes {
		yamlField(&b, "  - ", "Function Name", yamlScalar(p.Name))
		if p.LinkageName != "" {
			yamlField(&b, "    ", "Linkage Name", yamlScalar(p.LinkageName))
		}
		yamlField(&b, "    ", "CFG Hash", fmt.Sprintf("0x%X", p.CFGHash))
		yamlField(&b, "    ", "Counter Offset", fmt.Sprintf("0x%X", p.CounterOffset))
		yamlField(&b, "    ", "Num Counters", fmt.Sprint(p.NumCounters))
		if p.File != "" {
			yamlField(&b, "    ", "File", yamlScalar(p.File))
		}
		if p.Line != 0 {
			yamlField(&b, "    ", "Line", fmt.Sprint(p.Line))
		}
	}
	b.WriteString("...\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func yamlField(b *strings.Builder, indent, key, value string) {
	b.WriteString(indent + key + ":" + strings.Repeat(" ", max(16-len(key), 1)) + value + "\n")
}

// yamlScalar quotes s where LLVM's YAML writer does: single quotes for a
// string with characters outside [A-Za-z0-9_-^., \t] or starting with an
// indicator, double quotes for control characters and UTF-8.
func yamlScalar(s string) string {
	switch yamlQuoting(s) {
	case quoteSingle:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case quoteDouble:
		return yamlDoubleQuoted(s)
	}
	return s
}

type yamlQuote int

const (
	quoteNone yamlQuote = iota
	quoteSingle
	quoteDouble
)

func yamlQuoting(s string) yamlQuote {
	if s == "" || strings.ContainsRune("-?:\\,[]{}#&*!|>'\"%@`", rune(s[0])) || s[0] == ' ' || s[len(s)-1] == ' ' {
		return max(quoteSingle, yamlCharsQuoting(s))
	}
	return yamlCharsQuoting(s)
}

func yamlCharsQuoting(s string) yamlQuote {
	q := quoteNone
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("_-^., \t", c) >= 0:
		case c == 0x7f || c < 0x20 && c != '\n' && c != '\r' || c >= 0x80:
			return quoteDouble
		default:
			q = quoteSingle
		}
	}
	return q
}

// yamlDoubleQuoted escapes s in double quotes: backslash, quote, control
// characters; UTF-8 stays as it is.
func yamlDoubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\x%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
