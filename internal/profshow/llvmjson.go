package profshow

// llvm-profdata-19 show --sample --show-format=json: every function as
// SampleProfileReader::dumpJson writes it, through llvm::json::OStream
// with an indent of 2.

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/sampleprof"
)

// jsonField is one attribute of a JSON object: a scalar already rendered,
// or an array of objects.
type jsonField struct {
	key    string
	scalar string
	array  []jsonObject
}

type jsonObject []jsonField

// writeLLVMSampleJSON writes p's functions, in LLVM's order, as JSON.
func writeLLVMSampleJSON(w io.Writer, p *sampleprof.Profile) {
	var objs []jsonObject
	for _, f := range p.SortedFunctions() {
		objs = append(objs, functionJSON(f, true))
	}
	var b strings.Builder
	writeJSONArray(&b, objs, 0)
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

// functionJSON is LLVM's dumpFunctionProfileJson of f; only a top-level
// profile has "head".
func functionJSON(f *sampleprof.FunctionSamples, top bool) jsonObject {
	obj := jsonObject{{key: "name", scalar: jsonString(f.Name)}, {key: "total", scalar: fmt.Sprint(f.TotalSamples)}}
	if top {
		obj = append(obj, jsonField{key: "head", scalar: fmt.Sprint(f.HeadSamples)})
	}
	if len(f.Body) > 0 {
		obj = append(obj, jsonField{key: "body", array: bodyJSON(f)})
	}
	if len(f.Callsites) > 0 {
		obj = append(obj, jsonField{key: "callsites", array: callsitesJSON(f)})
	}
	return obj
}

// locationJSON are a location's "line" and, when nonzero, "discriminator".
func locationJSON(l sampleprof.LineLocation) jsonObject {
	obj := jsonObject{{key: "line", scalar: fmt.Sprint(l.LineOffset)}}
	if l.Discriminator != 0 {
		obj = append(obj, jsonField{key: "discriminator", scalar: fmt.Sprint(l.Discriminator)})
	}
	return obj
}

func bodyJSON(f *sampleprof.FunctionSamples) []jsonObject {
	var out []jsonObject
	for _, loc := range sampleprof.SortedLocations(f.Body) {
		r := f.Body[loc]
		obj := append(locationJSON(loc), jsonField{key: "samples", scalar: fmt.Sprint(r.Samples)})
		if len(r.CallTargets) > 0 {
			var calls []jsonObject
			for _, t := range r.SortedCallTargets() {
				calls = append(calls, jsonObject{{key: "function", scalar: jsonString(t.Name)}, {key: "samples", scalar: fmt.Sprint(t.Count)}})
			}
			obj = append(obj, jsonField{key: "calls", array: calls})
		}
		out = append(out, obj)
	}
	return out
}

// callsitesJSON has one object per inlinee: its call site and, in a
// one-element "samples" array, its profile.
func callsitesJSON(f *sampleprof.FunctionSamples) []jsonObject {
	var out []jsonObject
	for _, loc := range sampleprof.SortedLocations(f.Callsites) {
		for _, c := range sampleprof.SortedInlinees(f.Callsites[loc]) {
			obj := append(locationJSON(loc), jsonField{key: "samples", array: []jsonObject{functionJSON(c, false)}})
			out = append(out, obj)
		}
	}
	return out
}

func writeJSONArray(b *strings.Builder, objs []jsonObject, depth int) {
	if len(objs) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteString("[")
	for i, o := range objs {
		if i > 0 {
			b.WriteString(",")
		}
		newline(b, depth+1)
		writeJSONObject(b, o, depth+1)
	}
	newline(b, depth)
	b.WriteString("]")
}

func writeJSONObject(b *strings.Builder, obj jsonObject, depth int) {
	b.WriteString("{")
	for i, f := range obj {
		if i > 0 {
			b.WriteString(",")
		}
		newline(b, depth+1)
		b.WriteString(jsonString(f.key) + ": ")
		if f.array != nil {
			writeJSONArray(b, f.array, depth+1)
		} else {
			b.WriteString(f.scalar)
		}
	}
	newline(b, depth)
	b.WriteString("}")
}

func newline(b *strings.Builder, depth int) {
	b.WriteString("\n" + strings.Repeat("  ", depth))
}

// jsonString quotes s as llvm::json does: '"' and '\\' escaped, control
// characters as \t, \n, \r or \u00XX, everything else as is.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20:
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		default:
			b.WriteString(`\u00` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
		}
	}
	b.WriteByte('"')
	return b.String()
}
