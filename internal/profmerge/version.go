package profmerge

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/raw"
)

// outputVersion is the indexed version to write p in: the one asked for,
// else 13 but where p's front-end hashes are clang 21's (12, which clang
// 22 reads with that hash too). Where the version will make clang 22
// ignore records, one warning line says so.
func (o *Options) outputVersion(stderr io.Writer, p *instrprof.Profile) int {
	h := indexed.CountFrontEndHashes(p)
	v := o.OutputVersion
	if v == 0 {
		v = indexed.Version
		if h.Clang21() {
			v = indexed.PrevVersion
		}
	}
	if w := hashWarning(v, h); w != "" && o.Format != FormatText {
		fmt.Fprintf(stderr, "profgen merge: warning: %s\n", w)
	}
	return v
}

// hashWarning says what clang 22 will make of the front-end hashes h in a
// file of version v, where it will ignore some.
func hashWarning(v int, h indexed.FrontEndHashes) string {
	switch {
	case v == indexed.Version && h.Clang21():
		return fmt.Sprintf("%d front-end records carry the function hash of clang 21 or older, which clang 22 reads only from indexed version 12: it will ignore them in this version-13 file (--output-version=12 writes one it reads)", h.V3)
	case v < indexed.Version && h.Clang22():
		return fmt.Sprintf("%d front-end records carry clang 22's function hash, which clang 22 reads only from indexed version 13: it will ignore most of them in this version-%d file, and older clangs too", h.V4Like, v)
	}
	return ""
}

// oldRawsNote is one line on the merged raws that llvm-profdata 19 to 22
// refuse (versions 8 and 9, clang 14 to 18), given the count of merged
// raws by version; "" when there are none.
func oldRawsNote(versions map[int]int) string {
	var old []string
	for _, v := range slices.Sorted(maps.Keys(versions)) {
		if v != raw.Version {
			old = append(old, fmt.Sprintf("%d of version %d (%s)", versions[v], v, raw.Writers[v]))
		}
	}
	if len(old) == 0 {
		return ""
	}
	return fmt.Sprintf("merged raws that llvm-profdata 19 to 22 refuse (they read version %d only): %s", raw.Version, strings.Join(old, ", "))
}
