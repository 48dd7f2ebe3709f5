package memprof

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadYAML reads a MemProf profile in llvm's YAML form (LLVM 20 on:
// HeapProfileRecords, each a GUID with allocation sites and call sites).
// A GUID or frame function is a hexadecimal number or a function name (its
// GUID then); decimal numbers are refused, as llvm does. A GUID seen again
// keeps its first record. Errors carry the line.
func ReadYAML(b []byte) (*Data, error) {
	d := NewData()
	top, err := firstDocument(b)
	if err != nil || top == nil {
		return d, err
	}
	if top.Kind != yaml.MappingNode {
		return nil, yamlErr(top, "expected a mapping")
	}
	for k, v := range pairs(top) {
		switch k.Value {
		case "HeapProfileRecords":
			if err := readYAMLRecords(d, v); err != nil {
				return nil, err
			}
		case "DataAccessProfiles":
			return nil, yamlErr(k, "DataAccessProfiles: data access profiles are not supported")
		default:
			return nil, yamlErr(k, "unknown key '"+k.Value+"'")
		}
	}
	return d, nil
}

// firstDocument is the content of the first document that has some (a
// document of comments only, as show --memory prints the summary in, is
// passed over); nil for none.
func firstDocument(b []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if len(doc.Content) > 0 && !(doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null") {
			return doc.Content[0], nil
		}
	}
}

func yamlErr(n *yaml.Node, msg string) error {
	return fmt.Errorf("line %d: %s", n.Line, msg)
}

// pairs iterates the keys and values of a mapping node.
func pairs(m *yaml.Node) func(func(k, v *yaml.Node) bool) {
	return func(yield func(k, v *yaml.Node) bool) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if !yield(m.Content[i], m.Content[i+1]) {
				return
			}
		}
	}
}

func sequence(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && n.Value == "" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, yamlErr(n, what+": expected a sequence")
	}
	return n.Content, nil
}

func readYAMLRecords(d *Data, n *yaml.Node) error {
	recs, err := sequence(n, "HeapProfileRecords")
	if err != nil {
		return err
	}
	seen := map[uint64]bool{}
	for _, rn := range recs {
		rec, err := readYAMLRecord(d, rn)
		if err != nil {
			return err
		}
		if !seen[rec.GUID] {
			seen[rec.GUID] = true
			*d.Record(rec.GUID) = *rec
		}
	}
	return nil
}

func readYAMLRecord(d *Data, n *yaml.Node) (*Record, error) {
	if n.Kind != yaml.MappingNode {
		return nil, yamlErr(n, "record: expected a mapping")
	}
	rec := &Record{}
	hasGUID := false
	for k, v := range pairs(n) {
		var err error
		switch k.Value {
		case "GUID":
			rec.GUID, err = yamlGUID(v)
			hasGUID = true
		case "AllocSites":
			rec.AllocSites, err = readYAMLAllocSites(d, v)
		case "CallSites":
			rec.CallSites, err = readYAMLCallSites(d, v)
		default:
			err = yamlErr(k, "unknown key '"+k.Value+"'")
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasGUID {
		return nil, yamlErr(n, "missing required key 'GUID'")
	}
	return rec, nil
}

// yamlGUID reads a GUID: 0x-hexadecimal, or a function name.
func yamlGUID(n *yaml.Node) (uint64, error) {
	s := n.Value
	if s != "" && strings.Trim(s, "0123456789") == "" {
		return 0, yamlErr(n, "use a hexadecimal GUID or a function instead")
	}
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		v, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return 0, yamlErr(n, "invalid hex64 number")
		}
		return v, nil
	}
	return GUIDOf(s), nil
}

func readYAMLAllocSites(d *Data, n *yaml.Node) ([]AllocSite, error) {
	items, err := sequence(n, "AllocSites")
	if err != nil {
		return nil, err
	}
	var out []AllocSite
	for _, it := range items {
		var a AllocSite
		var stack, mib *yaml.Node
		for k, v := range pairs(it) {
			switch k.Value {
			case "Callstack":
				stack = v
			case "MemInfoBlock":
				mib = v
			default:
				return nil, yamlErr(k, "unknown key '"+k.Value+"'")
			}
		}
		if stack == nil || mib == nil {
			return nil, yamlErr(it, "missing required key 'Callstack' or 'MemInfoBlock'")
		}
		if a.Stack, err = readYAMLStack(d, stack); err != nil {
			return nil, err
		}
		if a.Info, err = readYAMLMIB(mib); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func readYAMLCallSites(d *Data, n *yaml.Node) ([]CallSite, error) {
	items, err := sequence(n, "CallSites")
	if err != nil {
		return nil, err
	}
	var out []CallSite
	for _, it := range items {
		var cs CallSite
		var frames *yaml.Node
		for k, v := range pairs(it) {
			switch k.Value {
			case "Frames":
				frames = v
			case "CalleeGuids":
				if cs.Callees, err = readYAMLGUIDs(v); err != nil {
					return nil, err
				}
			default:
				return nil, yamlErr(k, "unknown key '"+k.Value+"'")
			}
		}
		if frames == nil {
			return nil, yamlErr(it, "missing required key 'Frames'")
		}
		if cs.Stack, err = readYAMLStack(d, frames); err != nil {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, nil
}

func readYAMLGUIDs(n *yaml.Node) ([]uint64, error) {
	items, err := sequence(n, "CalleeGuids")
	if err != nil {
		return nil, err
	}
	out := make([]uint64, 0, len(items))
	for _, it := range items {
		g, err := yamlGUID(it)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// readYAMLStack reads frames (leaf first) and adds them and their stack.
func readYAMLStack(d *Data, n *yaml.Node) (StackID, error) {
	items, err := sequence(n, "call stack")
	if err != nil {
		return 0, err
	}
	ids := make([]FrameID, 0, len(items))
	for _, it := range items {
		f, err := readYAMLFrame(it)
		if err != nil {
			return 0, err
		}
		ids = append(ids, d.AddFrame(f))
	}
	return d.AddStack(ids), nil
}

func readYAMLFrame(n *yaml.Node) (Frame, error) {
	var f Frame
	seen := 0
	for k, v := range pairs(n) {
		var err error
		switch k.Value {
		case "Function":
			f.Function, err = yamlGUID(v)
		case "LineOffset":
			f.LineOffset, err = yamlUint32(v)
		case "Column":
			f.Column, err = yamlUint32(v)
		case "IsInlineFrame":
			f.Inline, err = yamlBool(v)
		default:
			err = yamlErr(k, "unknown key '"+k.Value+"'")
		}
		if err != nil {
			return f, err
		}
		seen++
	}
	if seen < 4 {
		return f, yamlErr(n, "a frame needs Function, LineOffset, Column and IsInlineFrame")
	}
	return f, nil
}

func yamlUint32(n *yaml.Node) (uint32, error) {
	v, err := strconv.ParseUint(n.Value, 0, 32)
	if err != nil {
		return 0, yamlErr(n, "invalid number")
	}
	return uint32(v), nil
}

func yamlBool(n *yaml.Node) (bool, error) {
	switch n.Value {
	case "true", "True", "TRUE", "yes", "on", "1":
		return true, nil
	case "false", "False", "FALSE", "no", "off", "0":
		return false, nil
	}
	return false, yamlErr(n, "invalid boolean")
}

// readYAMLMIB reads a MemInfoBlock: any of the MIB fields by name.
func readYAMLMIB(n *yaml.Node) (MIB, error) {
	var m MIB
	if n.Kind != yaml.MappingNode {
		return m, yamlErr(n, "MemInfoBlock: expected a mapping")
	}
	for k, v := range pairs(n) {
		tag := fieldTag(k.Value)
		if tag == 0 {
			return m, yamlErr(k, "Key is not a valid validation event")
		}
		x, err := strconv.ParseUint(v.Value, 0, 64)
		if err != nil {
			return m, yamlErr(v, "invalid number")
		}
		m.Values[tag-1] = fieldMask(tag, x)
		m.Present |= 1 << tag
	}
	return m, nil
}

// fieldTag is the tag of the MIB field of the name, 0 for none.
func fieldTag(name string) int {
	for i, f := range Fields {
		if f.Name == name {
			return i + 1
		}
	}
	return 0
}
