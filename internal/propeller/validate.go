package propeller

import (
	"fmt"
	"slices"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
)

// Validate checks p against the binary it is the profile of, as clang
// would not (it ignores an unknown block without a word, and aborts on a
// repeated function or block): every function named once and in the map,
// every clustered block in its function's map once, its entry block
// first. A name given with a module is checked against the map of one of
// the functions of that name.
func Validate(p *Profile, funcs []bbaddrmap.Func, syms []binary.Symbol) error {
	maps := mapsByName(funcs, syms)
	seen := map[[2]string]bool{}
	for _, f := range p.Funcs {
		name := f.Names[0]
		if seen[[2]string{name, f.Module}] {
			return fmt.Errorf("propeller: function %s twice in the profile", name)
		}
		seen[[2]string{name, f.Module}] = true
		if err := validateFunc(f, maps[name]); err != nil {
			return err
		}
	}
	return nil
}

// mapsByName gives the maps of the functions of each symbol name.
func mapsByName(funcs []bbaddrmap.Func, syms []binary.Symbol) map[string][]*bbaddrmap.Func {
	byAddr := map[uint64]*bbaddrmap.Func{}
	for i := range funcs {
		if len(funcs[i].Ranges) > 0 && len(funcs[i].Ranges[0].Blocks) > 0 {
			byAddr[funcs[i].Addr()] = &funcs[i]
		}
	}
	maps := map[string][]*bbaddrmap.Func{}
	for _, s := range syms {
		if m := byAddr[s.Addr]; m != nil && !slices.Contains(maps[s.Name], m) {
			maps[s.Name] = append(maps[s.Name], m)
		}
	}
	return maps
}

// validateFunc checks f against the maps of the functions of its name:
// one must take its clusters.
func validateFunc(f Func, maps []*bbaddrmap.Func) error {
	if len(maps) == 0 {
		return fmt.Errorf("propeller: function %s is not in the binary's %s", f.Names[0], bbaddrmap.Section)
	}
	var err error
	for _, m := range maps {
		if err = validateClusters(f, m); err == nil {
			return nil
		}
	}
	return err
}

// validateClusters checks f's clusters against its map m.
func validateClusters(f Func, m *bbaddrmap.Func) error {
	ids := map[uint32]bool{}
	for _, r := range m.Ranges {
		for _, b := range r.Blocks {
			ids[b.ID] = true
		}
	}
	entry := m.Ranges[0].Blocks[0].ID
	if len(f.Clusters) == 0 || len(f.Clusters[0]) == 0 || f.Clusters[0][0] != entry {
		return fmt.Errorf("propeller: function %s: its first cluster does not start with its entry block %d", f.Names[0], entry)
	}
	placed := map[uint32]bool{}
	for _, c := range f.Clusters {
		for _, id := range c {
			if !ids[id] || placed[id] {
				return fmt.Errorf("propeller: function %s: block %d is not in its map, or is in two clusters", f.Names[0], id)
			}
			placed[id] = true
		}
	}
	return nil
}
