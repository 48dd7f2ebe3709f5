package profshow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Function is one function's profile as a tree: body counts by location,
// then the callees inlined at each call site.
type Function struct {
	Name      string    `json:"name"`
	Demangled string    `json:"demangled,omitempty"`
	Total     uint64    `json:"total"`
	Head      uint64    `json:"head"`
	Checksum  uint64    `json:"cfg_checksum,omitempty"` // pseudo-probe profiles
	Attrs     []string  `json:"attributes,omitempty"`   // context attributes of the pre-inliner
	Body      []Line    `json:"body"`
	Inlined   []Inlined `json:"inlined,omitempty"`
}

// Line is the body count at one location ("line offset[.discriminator]").
type Line struct {
	Location string `json:"location"`
	Samples  uint64 `json:"samples"`
	Calls    []Call `json:"calls,omitempty"`
}

// Call is a call target with its count.
type Call struct {
	Name      string `json:"name"`
	Demangled string `json:"demangled,omitempty"`
	Count     uint64 `json:"count"`
}

// Inlined is a callee inlined at a call site.
type Inlined struct {
	Location string    `json:"location"`
	Callee   *Function `json:"callee"`
}

// FindFunction returns the top-level function named name: its linkage
// name, its demangled name, or its demangled name without parameters.
// A name matching several functions is an error listing them.
func FindFunction(p *sampleprof.Profile, name string) (*Function, error) {
	var found []*sampleprof.FunctionSamples
	if f := p.Functions[name]; f != nil {
		found = append(found, f)
	} else {
		for _, n := range sortedKeys(p.Functions) {
			if matches(n, name) {
				found = append(found, p.Functions[n])
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no function %q in the profile", name)
	case 1:
		return tree(found[0], true), nil
	}
	var names []string
	for _, f := range found {
		names = append(names, f.Name)
	}
	return nil, fmt.Errorf("%q matches %d functions: %s", name, len(found), strings.Join(names, ", "))
}

// Instance is a function inlined somewhere: the call path to it
// ("main:3 @ ns::run:2.1 @ foo") and its profile there.
type Instance struct {
	Path     string    `json:"path"`
	Function *Function `json:"function"`
}

// FindInlined returns every inlined instance of the function named name
// (linkage name, demangled, or demangled without parameters), in profile
// order: for functions that were only ever inlined.
func FindInlined(p *sampleprof.Profile, name string) []Instance {
	var out []Instance
	for _, f := range p.SortedFunctions() {
		out = findInlined(f, name, displayShort(f.Name), out)
	}
	return out
}

func findInlined(f *sampleprof.FunctionSamples, name, path string, out []Instance) []Instance {
	for _, loc := range sampleprof.SortedLocations(f.Callsites) {
		for _, c := range sampleprof.SortedInlinees(f.Callsites[loc]) {
			cpath := path + ":" + location(loc) + " @ " + displayShort(c.Name)
			if matches(c.Name, name) {
				out = append(out, Instance{Path: cpath, Function: tree(c, false)})
			}
			out = findInlined(c, name, cpath, out)
		}
	}
	return out
}

func matches(linkage, name string) bool {
	return linkage == name || demangle.Filter(linkage) == name || demangle.Filter(linkage, demangle.NoParams) == name
}

// displayShort is the demangled name without parameters, for paths.
func displayShort(name string) string {
	return demangle.Filter(name, demangle.NoParams)
}

func tree(f *sampleprof.FunctionSamples, top bool) *Function {
	t := &Function{Name: f.Name, Demangled: demangled(f.Name), Total: f.TotalSamples, Checksum: f.Checksum, Attrs: attributes(f.Attributes)}
	if top {
		t.Head = f.HeadSamples
	}
	for _, loc := range sampleprof.SortedLocations(f.Body) {
		r := f.Body[loc]
		l := Line{Location: location(loc), Samples: r.Samples}
		for _, ct := range r.SortedCallTargets() {
			l.Calls = append(l.Calls, Call{Name: ct.Name, Demangled: demangled(ct.Name), Count: ct.Count})
		}
		t.Body = append(t.Body, l)
	}
	for _, loc := range sampleprof.SortedLocations(f.Callsites) {
		for _, c := range sampleprof.SortedInlinees(f.Callsites[loc]) {
			t.Inlined = append(t.Inlined, Inlined{Location: location(loc), Callee: tree(c, false)})
		}
	}
	return t
}

func location(l sampleprof.LineLocation) string {
	s := strconv.FormatUint(uint64(l.LineOffset), 10)
	if l.Discriminator != 0 {
		s += "." + strconv.FormatUint(uint64(l.Discriminator), 10)
	}
	return s
}

// attributes names the context attribute bits.
func attributes(a uint32) []string {
	var names []string
	for _, b := range []struct {
		bit  uint32
		name string
	}{
		{sampleprof.ContextWasInlined, "was-inlined"},
		{sampleprof.ContextShouldBeInlined, "should-be-inlined"},
		{sampleprof.ContextDuplicatedIntoBase, "duplicated-into-base"},
	} {
		if a&b.bit != 0 {
			names = append(names, b.name)
		}
	}
	return names
}
