package contprof

import (
	"slices"

	"github.com/profgen/profgen/internal/pprofread"
	"google.golang.org/protobuf/encoding/protowire"
)

// IsProfile reports whether head, the first bytes of a file, is those of
// a profile read here: gzipped, or a protobuf message whose first field
// is a message (pprof's sample_type, OTLP's resource_profiles or
// dictionary) and which holds a byte no text does. A caller that takes
// text too (perf script) asks it first.
func IsProfile(head []byte) bool {
	if pprofread.IsGzip(head) {
		return true
	}
	num, typ, n := protowire.ConsumeTag(head)
	if n < 0 || (num != 1 && num != 2) || typ != protowire.BytesType {
		return false
	}
	if _, m := protowire.ConsumeVarint(head[n:]); m < 0 {
		return false
	}
	return slices.ContainsFunc(head, func(b byte) bool { return b < '\t' })
}
