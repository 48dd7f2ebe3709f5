package sampleprof

import "strings"

// The GCC AutoFDO profile (the file gcc -fauto-profile reads; gcov-style,
// Google's create_gcov writes it): little-endian 32-bit words, 64-bit
// counters as two words, low first.
//
//	header      "adcg" (0x67636461), the version, a zero word
//	summary     version 3 only: tag 0xa8000000 (no length word); total,
//	            max, max function count, number of counts, number of
//	            functions, number of entries (64-bit each); per entry a
//	            cutoff (32-bit), min count and number of counts (64-bit)
//	names       tag 0xaa000000, a length word; version 3: the number of
//	            source files and their strings; the number of names and
//	            their strings, each followed in version 3 by the index of
//	            its source file (0xffffffff for none). Name 0 is "".
//	functions   tag 0xac000000, a length word, the number of functions;
//	            each a head count (64-bit), in version 3 a timestamp
//	            (64-bit), then its instance
//	modules     tag 0xae000000, a length word, 0 modules (GCC asserts 0)
//	working set tag 0xaf000000, a length word, 128 × (32-bit, 64-bit)
//
// An instance is a name index, the number of positions and of inlined call
// sites; each position an offset (line offset << 16 | discriminator), the
// number of indirect-call targets, a 64-bit count, and per target the
// histogram type 7, a 64-bit name index and a 64-bit count; each call site
// an offset and the callee's instance (without head count).
//
// Strings: version 2 and 3 (GCC 12 on) store a byte length that counts the
// terminating NUL, then the bytes; version 1 (GCC ≤ 11) and "*704" (the
// create_gcov default, which llvm-profdata reads) a length in words, then
// the bytes NUL-padded to a word. GCC reads nothing after the module
// section, nor the section lengths; the readers here do the same.
//
// GCC matches a name cut at its first '.' (foo.cold, foo.part.0,
// foo.isra.0 all name foo), and keeps only the last instance of a cut
// name; gccForm merges such instances before writing.

// GCCMagic starts every GCC AutoFDO profile: the magic word on disk.
const GCCMagic = "adcg"

// The versions of the GCC AutoFDO profile: the word after the magic.
const (
	GCCVersion704 = 0x3430372a // "*704": create_gcov's default, LLVM's reader
	GCCVersion1   = 1          // GCC ≤ 11: strings in words
	GCCVersion2   = 2          // GCC 12 to 15: strings in bytes
	GCCVersion3   = 3          // GCC 16: summary, source files, timestamps
)

const (
	gcovTagSummary    = 0xa8000000
	gcovTagNames      = 0xaa000000
	gcovTagFunctions  = 0xac000000
	gcovTagModules    = 0xae000000
	gcovTagWorkingSet = 0xaf000000
	gcovHistICTopN    = 7   // HIST_TYPE_INDIR_CALL_TOPN
	gcovWorkingSets   = 128 // NUM_GCOV_WORKING_SETS
	gcovNoFile        = 0xffffffff
	gcovMaxOffset     = 0xffff // line offsets and discriminators have 16 bits
)

// gcovWordStrings says a version stores strings as word counts.
func gcovWordStrings(version uint32) bool {
	return version == GCCVersion704 || version == GCCVersion1
}

// gcovKnownVersion says the readers know version.
func gcovKnownVersion(version uint32) bool {
	return gcovWordStrings(version) || version == GCCVersion2 || version == GCCVersion3
}

// GCCName is name as GCC matches it: cut at the first '.'.
func GCCName(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

// gcovLocation splits an offset word: line offset << 16 | discriminator.
func gcovLocation(off uint32) LineLocation {
	return LineLocation{LineOffset: off >> 16, Discriminator: off & 0xffff}
}

// gcovOffset is loc's offset word; loc must fit (gccForm checks).
func gcovOffset(loc LineLocation) uint32 {
	return loc.LineOffset<<16 | loc.Discriminator
}
