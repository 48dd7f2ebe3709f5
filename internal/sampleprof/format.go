package sampleprof

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/profgen/profgen/internal/profformat"
)

// Format is an encoding of a sample profile.
type Format int

// The sample profile encodings LLVM reads (SampleProf.h SampleProfileFormat).
const (
	FormatUnknown   Format = iota
	FormatText             // LLVM's text format
	FormatBinary           // SPF_Binary: summary, name table, profiles
	FormatExtBinary        // SPF_Ext_Binary: sections behind a header table
	FormatGCC              // SPF_GCC: GCC AutoFDO (gcov.go), versions 2 and 3 written
)

var formatNames = map[Format]string{
	FormatText:      "text",
	FormatBinary:    "binary",
	FormatExtBinary: "extbinary",
}

func (f Format) String() string {
	if n, ok := formatNames[f]; ok {
		return n
	}
	if f == FormatGCC {
		return "gcc"
	}
	return "unknown"
}

// ParseFormat returns the format named as llvm-profgen's --format names it.
func ParseFormat(name string) (Format, error) {
	for f, n := range formatNames {
		if n == name {
			return f, nil
		}
	}
	return FormatUnknown, fmt.Errorf("unknown sample profile format %q (want text, binary or extbinary)", name)
}

// The binary magic is 'SPROF42' followed by a format byte, stored as a
// ULEB128 (profformat holds the table of magics); the version follows it.
const (
	magicBinary    = profformat.SampleBinaryMagic
	magicExtBinary = profformat.SampleExtBinaryMagic
	formatVersion  = 103
)

// Section types of the extbinary header table (SampleProf.h SecType).
const (
	secProfSummary       = 1
	secNameTable         = 2
	secProfileSymbolList = 3
	secFuncOffsetTable   = 4
	secFuncMetadata      = 5
	secCSNameTable       = 6
	secLBRProfile        = 0x20
)

// Section flags. Flags common to all sections sit in the low 32 bits, those
// of one section type in the high 32 bits.
const (
	secFlagCompress = 1 << 0
	secFlagFlat     = 1 << 1

	secFlagMD5Name        = 1 << 32 // name table
	secFlagFixedLengthMD5 = 2 << 32
	secFlagUniqSuffix     = 4 << 32

	secFlagPartial         = 1 << 32 // profile summary
	secFlagFullContext     = 2 << 32
	secFlagFSDiscriminator = 4 << 32
	secFlagIsPreInlined    = 16 << 32
	// secFlagHasVTableTypeProf: each function's vtable type counts follow
	// its inlinees (LLVM 22).
	secFlagHasVTableTypeProf = 32 << 32

	secFlagOrdered = 1 << 32 // function offset table: in context order

	secFlagIsProbeBased = 1 << 32 // function metadata
	secFlagHasAttribute = 2 << 32
)

// uniqSuffix marks names made unique by -funique-internal-linkage-names.
const uniqSuffix = ".__uniq."

// Detect tells the format of a profile from its first bytes (16 are
// enough): a binary magic, else text when the data looks like text.
// Other profiles (instrumentation, pprof) give FormatUnknown.
func Detect(head []byte) Format {
	switch profformat.Sniff(head) {
	case profformat.SampleBinary:
		return FormatBinary
	case profformat.SampleExtBinary:
		return FormatExtBinary
	case profformat.SampleGCC:
		return FormatGCC
	}
	if profformat.LooksLikeText(head) {
		return FormatText
	}
	return FormatUnknown
}

// MD5Name returns the MD5 by which an MD5 profile names a function: the
// low 64 bits (little-endian) of the MD5 digest of the name.
func MD5Name(name string) uint64 {
	sum := md5.Sum([]byte(name))
	return binary.LittleEndian.Uint64(sum[:8])
}

func hasUniqSuffix(name string) bool { return strings.Contains(name, uniqSuffix) }

// CanonicalName strips the compiler suffixes LLVM drops by default when
// matching profiles to functions (".llvm.N", ".part.N" when last), as
// FunctionSamples::getCanonicalFnName with policy "selected". ".__uniq.N"
// (-funique-internal-linkage-names, implied by -fpseudo-probe-for-profiling)
// stays: LLVM skips it while FunctionSamples::HasUniqSuffix, true by default.
func CanonicalName(name string) string {
	for _, suffix := range []string{".llvm.", ".part."} {
		i := strings.LastIndex(name, suffix)
		if i < 0 {
			continue
		}
		if strings.LastIndexByte(name, '.') == i+len(suffix)-1 {
			name = name[:i]
		}
	}
	return name
}
