package contprof

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// otlpDict is the ProfilesDictionary of an OTLP profiles message: the
// tables the samples refer to by index, entry 0 of each the zero value.
type otlpDict struct {
	strings   []string
	mappings  []otlpMapping
	locations []otlpLocation
	attrs     []otlpAttr
	stacks    []otlpStack
	// present notes the tables the message has, by field number.
	present map[protowire.Number]bool
}

type otlpMapping struct {
	start, limit, offset uint64
	file                 uint64
	attrs                []uint64
	off                  int
}

type otlpLocation struct {
	mapping uint64
	addr    uint64
	attrs   []uint64
	off     int
}

// otlpAttr is an attribute whose value is a string; other values are
// kept as "".
type otlpAttr struct {
	key   uint64
	value string
	off   int
}

type otlpStack struct {
	locs []uint64
	off  int
}

// Dictionary field numbers (ProfilesDictionary).
const (
	dictMappings  = 1
	dictLocations = 2
	dictFunctions = 3
	dictLinks     = 4
	dictStrings   = 5
	dictAttrs     = 6
	dictStacks    = 7
)

// decodeDict reads a ProfilesDictionary, at offset base, after checking
// what decoding it would take.
func decodeDict(b []byte, base int) (*otlpDict, error) {
	counts, err := checkBudget(b, base)
	if err != nil {
		return nil, err
	}
	d := &otlpDict{
		present:   map[protowire.Number]bool{},
		strings:   make([]string, 0, counts[dictStrings]),
		mappings:  make([]otlpMapping, 0, counts[dictMappings]),
		locations: make([]otlpLocation, 0, counts[dictLocations]),
		attrs:     make([]otlpAttr, 0, counts[dictAttrs]),
		stacks:    make([]otlpStack, 0, counts[dictStacks]),
	}
	err = eachField(b, base, func(f field) error {
		d.present[f.num] = true
		if f.num > dictStacks {
			return f.unknown("the dictionary")
		}
		if err := f.want(protowire.BytesType, "a dictionary table"); err != nil {
			return err
		}
		return d.addEntry(f)
	})
	if err != nil {
		return nil, err
	}
	return d, d.checkRefs()
}

// addEntry reads one entry of a dictionary table.
func (d *otlpDict) addEntry(f field) error {
	switch f.num {
	case dictMappings:
		m, err := decodeMapping(f)
		d.mappings = append(d.mappings, m)
		return err
	case dictLocations:
		l, err := decodeLocation(f)
		d.locations = append(d.locations, l)
		return err
	case dictStrings:
		d.strings = append(d.strings, string(f.data))
	case dictAttrs:
		a, err := decodeAttr(f)
		d.attrs = append(d.attrs, a)
		return err
	case dictStacks:
		s, err := decodeStack(f)
		d.stacks = append(d.stacks, s)
		return err
	}
	return nil // functions and links: not needed for addresses
}

// checkBudget refuses a dictionary whose decoded tables would take more
// than maxDecoded bytes, estimated from its entry count before decoding,
// and returns the entries of each table.
func checkBudget(b []byte, base int) (*[dictStacks + 1]int, error) {
	var counts [dictStacks + 1]int
	var entries uint64
	err := eachField(b, base, func(f field) error {
		entries++
		if f.num <= dictStacks {
			counts[f.num]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if est := entries*costEntry + costPacked*uint64(len(b)); est > maxDecoded {
		return nil, errAt(base, "the dictionary's %d entries would take about %d MiB to decode: more than the %d MiB allowed",
			entries, est>>20, maxDecoded>>20)
	}
	return &counts, nil
}

// costEntry is the most an entry of a dictionary table takes decoded,
// costPacked what a byte of it may take (a one-byte varint of a packed
// index list becomes 8 bytes); maxDecoded bounds what a profile's
// decoding may take.
const (
	costEntry  = 96
	costPacked = 8
	maxDecoded = 1 << 30
)

func decodeMapping(f field) (otlpMapping, error) {
	m := otlpMapping{off: f.off}
	err := eachField(f.data, f.dataOff(), func(g field) error {
		var err error
		switch g.num {
		case 1, 2, 3, 4:
			err = g.want(protowire.VarintType, "a mapping's address or file")
			m.setField(g.num, g.val)
		case 5:
			m.attrs, err = g.varints(m.attrs)
		default:
			err = g.unknown("a mapping")
		}
		return err
	})
	return m, err
}

// setField sets Mapping field num (memory_start, memory_limit,
// file_offset, filename_strindex).
func (m *otlpMapping) setField(num protowire.Number, v uint64) {
	switch num {
	case 1:
		m.start = v
	case 2:
		m.limit = v
	case 3:
		m.offset = v
	case 4:
		m.file = v
	}
}

func decodeLocation(f field) (otlpLocation, error) {
	l := otlpLocation{off: f.off}
	err := eachField(f.data, f.dataOff(), func(g field) error {
		var err error
		switch g.num {
		case 1:
			err = g.want(protowire.VarintType, "a location's mapping_index")
			l.mapping = g.val
		case 2:
			err = g.want(protowire.VarintType, "a location's address")
			l.addr = g.val
		case 3:
			err = g.want(protowire.BytesType, "a location's lines")
		case 4:
			l.attrs, err = g.varints(l.attrs)
		default:
			err = g.unknown("a location")
		}
		return err
	})
	return l, err
}

func decodeAttr(f field) (otlpAttr, error) {
	a := otlpAttr{off: f.off}
	err := eachField(f.data, f.dataOff(), func(g field) error {
		switch g.num {
		case 1:
			a.key = g.val
			return g.want(protowire.VarintType, "an attribute's key_strindex")
		case 2:
			if err := g.want(protowire.BytesType, "an attribute's value"); err != nil {
				return err
			}
			a.value = anyString(g.data)
		case 3:
			return g.want(protowire.VarintType, "an attribute's unit_strindex")
		default:
			return g.unknown("an attribute")
		}
		return nil
	})
	return a, err
}

// anyString returns the string_value (field 1) of an AnyValue, or "".
func anyString(b []byte) string {
	s := ""
	_ = eachField(b, 0, func(g field) error {
		if g.num == 1 && g.typ == protowire.BytesType {
			s = string(g.data)
		}
		return nil
	})
	return s
}

func decodeStack(f field) (otlpStack, error) {
	s := otlpStack{off: f.off}
	err := eachField(f.data, f.dataOff(), func(g field) error {
		if g.num != 1 {
			return g.unknown("a stack")
		}
		var err error
		s.locs, err = g.varints(s.locs)
		return err
	})
	return s, err
}

// checkRefs checks that every index in the tables is in its table.
func (d *otlpDict) checkRefs() error {
	for _, m := range d.mappings {
		if err := d.checkIndexes(m.off, "a mapping", m.file, m.attrs); err != nil {
			return err
		}
	}
	for _, l := range d.locations {
		if err := firstErr(inTable(l.mapping, len(d.mappings), l.off, "a location's mapping"),
			d.checkIndexes(l.off, "a location", 0, l.attrs)); err != nil {
			return err
		}
	}
	for _, a := range d.attrs {
		if err := inTable(a.key, len(d.strings), a.off, "an attribute's key"); err != nil {
			return err
		}
	}
	for _, s := range d.stacks {
		for _, li := range s.locs {
			if err := inTable(li, len(d.locations), s.off, "a stack's location"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkIndexes checks an entry's string index and attribute indexes.
func (d *otlpDict) checkIndexes(off int, what string, str uint64, attrs []uint64) error {
	if err := inTable(str, len(d.strings), off, what, "'s string"); err != nil {
		return err
	}
	for _, a := range attrs {
		if err := inTable(a, len(d.attrs), off, what, "'s attribute"); err != nil {
			return err
		}
	}
	return nil
}

// inTable refuses index i of a table of n entries unless it is in it;
// index 0 of an empty table is the zero value every table starts with.
// The parts of what name the index.
func inTable(i uint64, n int, off int, what ...string) error {
	if i == 0 || i < uint64(n) {
		return nil
	}
	return errAt(off, "%s index %d is outside its table of %d entries", strings.Join(what, ""), i, n)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// str returns string i, "" for an empty table.
func (d *otlpDict) str(i uint64) string {
	if i < uint64(len(d.strings)) {
		return d.strings[i]
	}
	return ""
}

// attrValue returns the string value of the attribute with key among
// the indexes, or "".
func (d *otlpDict) attrValue(attrs []uint64, key string) string {
	for _, i := range attrs {
		if i >= uint64(len(d.attrs)) {
			continue // the zero attribute of an empty table
		}
		if a := d.attrs[i]; d.str(a.key) == key {
			return a.value
		}
	}
	return ""
}
