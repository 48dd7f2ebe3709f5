package profmerge

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
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
