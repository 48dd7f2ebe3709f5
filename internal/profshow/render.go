package profshow

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes v (a Summary or a Function) as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteSummary writes s for people.
func WriteSummary(w io.Writer, s *Summary) error {
	fmt.Fprintf(w, "Format: %s\n", s.Format)
	if s.MD5Names {
		fmt.Fprintln(w, "Names: MD5 hashes")
	}
	if s.ProbeBased {
		fmt.Fprintln(w, "Locations: pseudo-probe ids")
	}
	if s.FSDiscrim {
		fmt.Fprintln(w, "Discriminators: flow-sensitive")
	}
	fmt.Fprintf(w, "Functions: %d, hot: %d\n", s.Functions, s.HotFunctions)
	fmt.Fprintf(w, "Total samples: %s, in hot functions: %s (%.2f%%)\n", s.TotalSamples, s.HotSamples, s.HotSamples.Share(s.TotalSamples))
	fmt.Fprintf(w, "Body counts: %d, maximum %d\n", s.BodyCounts, s.MaxCount)
	fmt.Fprintf(w, "Hot count threshold: %d (counts at or above it hold 99%% of samples), cold: %d\n", s.HotThreshold, s.ColdThreshold)
	if len(s.Hottest) == 0 {
		return nil
	}
	fmt.Fprintf(w, "Hottest functions:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "total\thead\tshare\tmax\t\n")
	for _, h := range s.Hottest {
		fmt.Fprintf(tw, "%d\t%d\t%.2f%%\t%d\t  %s\n", h.Total, h.Head, h.Percent, h.MaxCount, displayName(h.Name, h.Demangled))
	}
	return tw.Flush()
}

// WriteFunction writes one function's tree for people, inlinees indented
// under their call sites.
func WriteFunction(w io.Writer, f *Function) error {
	fmt.Fprintf(w, "Function: %s\n", displayName(f.Name, f.Demangled))
	fmt.Fprintf(w, "Total samples: %d, head samples: %d\n", f.Total, f.Head)
	if f.Checksum != 0 {
		fmt.Fprintf(w, "CFG checksum: %d\n", f.Checksum)
	}
	writeTree(w, f, 1)
	return nil
}

func writeTree(w io.Writer, f *Function, depth int) {
	pad := strings.Repeat("  ", depth)
	for _, l := range f.Body {
		fmt.Fprintf(w, "%s%s: %d", pad, l.Location, l.Samples)
		for _, c := range l.Calls {
			fmt.Fprintf(w, "  call %s: %d", displayName(c.Name, c.Demangled), c.Count)
		}
		fmt.Fprintln(w)
	}
	for _, in := range f.Inlined {
		fmt.Fprintf(w, "%s%s: inlined %s, total %d", pad, in.Location, displayName(in.Callee.Name, in.Callee.Demangled), in.Callee.Total)
		if len(in.Callee.Attrs) > 0 {
			fmt.Fprintf(w, " [%s]", strings.Join(in.Callee.Attrs, ","))
		}
		fmt.Fprintln(w)
		writeTree(w, in.Callee, depth+1)
	}
}

func displayName(name, demangled string) string {
	if demangled == "" {
		return name
	}
	return demangled + " [" + name + "]"
}

// WriteInstances writes the inlined instances of a function for people.
func WriteInstances(w io.Writer, name string, in []Instance) error {
	fmt.Fprintf(w, "Inlined instances of %s: %d\n", name, len(in))
	for _, i := range in {
		fmt.Fprintf(w, "\n%s: total %d\n", i.Path, i.Function.Total)
		writeTree(w, i.Function, 1)
	}
	return nil
}
