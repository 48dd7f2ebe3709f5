package propeller

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadCC reads a cc profile (v1 or v0) back: each function's names and
// clusters (clone ids like 6.1 are refused: profgen writes none), as
// clang's BasicBlockSectionsProfileReader reads them, with their module
// (an m line, M= in v0). Other v1 lines (p, g, h, t, #, @) are skipped. name names the input in errors.
func ReadCC(r io.Reader, name string) (*Profile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	rd := ccReader{name: name, p: &Profile{}, seen: map[[2]string]bool{}}
	for sc.Scan() {
		rd.line++
		if err := rd.parse(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, rd.line+1, err)
	}
	return rd.p, nil
}

type ccReader struct {
	name    string
	line    int
	version int // 1 after a v1 line, else 0
	p       *Profile
	seen    map[[2]string]bool // (name, module) of the functions read
	blocks  map[uint32]bool    // of the current function
	module  string             // of the next function (an m line)
}

func (rd *ccReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: line %d: "+format, append([]any{rd.name, rd.line}, args...)...)
}

func (rd *ccReader) parse(s string) error {
	if s == "" {
		return rd.errorf("empty line")
	}
	if rd.line == 1 && s[0] == 'v' {
		v, err := strconv.ParseUint(s[1:], 10, 8)
		if err != nil || v > 1 {
			return rd.errorf("invalid profile version %q", s[1:])
		}
		rd.version = int(v)
		return nil
	}
	if rd.version == 1 {
		return rd.v1(s[0], strings.TrimSpace(s[1:]))
	}
	return rd.v0(s)
}

// v1 reads a line of version 1.
func (rd *ccReader) v1(spec byte, s string) error {
	switch spec {
	case 'f':
		return rd.function(strings.Split(s, " "))
	case 'c':
		return rd.cluster(s)
	case 'm':
		if s == "" || strings.Contains(s, " ") {
			return rd.errorf("invalid module name %q", s)
		}
		rd.module = s
		return nil
	case 'p', 'g', 'h', 't', '#', '@':
		return nil
	}
	return rd.errorf("invalid specifier %q", spec)
}

// v0 reads a line of version 0.
func (rd *ccReader) v0(s string) error {
	if s[0] == '@' {
		return nil
	}
	body, ok := strings.CutPrefix(s, "!")
	if !ok || body == "" {
		return rd.errorf("a line of version 0 starts with ! or !!")
	}
	if c, ok := strings.CutPrefix(body, "!"); ok {
		return rd.cluster(c)
	}
	names, module, _ := strings.Cut(body, " ")
	if module != "" && (!strings.HasPrefix(module, "M=") || module == "M=") {
		return rd.errorf("unknown string %q", module)
	}
	rd.module = strings.TrimPrefix(module, "M=")
	return rd.function(strings.Split(names, "/"))
}

// function starts the profile of a function.
func (rd *ccReader) function(names []string) error {
	if names[0] == "" {
		return rd.errorf("no function name")
	}
	key := [2]string{names[0], rd.module}
	if rd.seen[key] {
		return rd.errorf("duplicate profile for function %q", names[0])
	}
	rd.seen[key] = true
	rd.blocks = map[uint32]bool{}
	rd.p.Funcs = append(rd.p.Funcs, Func{Names: names, Module: rd.module})
	rd.module = ""
	return nil
}

// cluster reads the block ids of a cluster of the current function.
func (rd *ccReader) cluster(s string) error {
	if len(rd.p.Funcs) == 0 {
		return rd.errorf("a cluster before any function")
	}
	var ids []uint32
	for _, f := range strings.Split(s, " ") {
		id, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			return rd.errorf("unsigned integer expected: %q", f)
		}
		if rd.blocks[uint32(id)] {
			return rd.errorf("duplicate basic block id %d", id)
		}
		rd.blocks[uint32(id)] = true
		ids = append(ids, uint32(id))
	}
	f := &rd.p.Funcs[len(rd.p.Funcs)-1]
	f.Clusters = append(f.Clusters, ids)
	return nil
}
