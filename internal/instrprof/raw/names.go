package raw

import (
	"sync"

	"github.com/profgen/profgen/internal/instrprof"
)

// NameCache keeps decoded names sections by their bytes: the raws of one
// binary all carry the same section, so it is inflated and hashed once.
// Safe for concurrent use; the zero value works (and a nil cache decodes
// every time).
type NameCache struct {
	mu sync.Mutex
	m  map[string]*nameTable
}

// nameTable maps name references (MD5) to the names of one names section.
type nameTable struct {
	byRef map[uint64]string
}

const maxCachedSections = 64

func (c *NameCache) get(d *instrprof.Decoder) (*nameTable, error) {
	if c == nil {
		return decodeNameMap(d)
	}
	c.mu.Lock()
	m, ok := c.m[string(d.Buf)]
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := decodeNameMap(d)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*nameTable{}
	}
	if len(c.m) < maxCachedSections {
		c.m[string(d.Buf)] = m
	}
	return m, nil
}

// decodeNameMap maps each name's reference (MD5) to the name.
func decodeNameMap(d *instrprof.Decoder) (*nameTable, error) {
	m := map[uint64]string{}
	err := instrprof.DecodeNames(d, func(name string) { m[instrprof.NameRef(name)] = name })
	return &nameTable{m}, err
}
