package pipeline

import (
	"fmt"
	"slices"
	"strings"
)

// A key is what the merge groups by: the kind of profile and the build ids
// of the binaries it counts. Profiles of one key merge into one; each key
// gives its own output files, named by its build ids.
//
// Written "KIND/ID+ID...": KIND is kindLBR, kindCS, kindStacks or
// kindInstr; the ids are lower-case hex, sorted ("-" for a binary without a
// build id). A key is a plain string, so its coder is deterministic, as a
// grouping key's must be.
type key struct {
	kind string
	ids  []string
}

// The kinds of profile a key holds.
const (
	kindLBR    = "lbr"    // llvm-profgen's unsymbolized profile of branch stacks
	kindCS     = "cs"     // the same with contexts (hybrid samples)
	kindStacks = "stacks" // profgen's address profile of call stacks, of one binary or several
	kindInstr  = "instr"  // instrumentation profiles (.profraw, indexed .profdata), by binary id
)

func newKey(kind string, ids []string) key {
	ids = slices.Clone(ids)
	for i, id := range ids {
		if id == "" {
			ids[i] = "-"
		}
	}
	slices.Sort(ids)
	return key{kind: kind, ids: slices.Compact(ids)}
}

func (k key) String() string { return k.kind + "/" + k.name() }

// name is the key's build ids joined by "+": the base of its output files.
func (k key) name() string { return strings.Join(k.ids, "+") }

// file is the output file of the key's profile of the binaries ids
// (joined by "+") with extension ext: under a directory named by the
// kind, so that profiles of one binary of different kinds stay apart.
func (k key) file(ids, ext string) string { return k.kind + "/" + ids + "." + ext }

// parseKey reads a key written by String.
func parseKey(s string) (key, error) {
	kind, ids, ok := strings.Cut(s, "/")
	if !ok || ids == "" {
		return key{}, fmt.Errorf("bad key %q", s)
	}
	return key{kind: kind, ids: strings.Split(ids, "+")}, nil
}

// buildIDs are the key's build ids, "" for a binary without one.
func (k key) buildIDs() []string {
	ids := slices.Clone(k.ids)
	for i, id := range ids {
		if id == "-" {
			ids[i] = ""
		}
	}
	return ids
}
