package sampleprof

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format is an encoding of a sample profile.
type Format int

// The sample profile encodings LLVM reads (SampleProf.h SampleProfileFormat).
const (
	FormatUnknown   Format = iota
	FormatText             // LLVM's text format
	FormatBinary           // SPF_Binary: summary, name table, profiles
	FormatExtBinary        // SPF_Ext_Binary: sections behind a header table
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
// ULEB128; the version follows it.
const (
	magicBase      = uint64('S')<<56 | uint64('P')<<48 | uint64('R')<<40 | uint64('O')<<32 | uint64('F')<<24 | uint64('4')<<16 | uint64('2')<<8
	magicBinary    = magicBase | 0xff
	magicExtBinary = magicBase | 4
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

	secFlagIsProbeBased = 1 << 32 // function metadata
	secFlagHasAttribute = 2 << 32
)

// uniqSuffix marks names made unique by -funique-internal-linkage-names.
const uniqSuffix = ".__uniq."

// Detect tells the format of a profile from its first bytes (16 are
// enough): a binary magic, else text when the data looks like text.
// Other profiles (instrumentation, pprof) give FormatUnknown.
func Detect(head []byte) Format {
	if m, n := binary.Uvarint(head); n > 0 {
		switch m {
		case magicBinary:
			return FormatBinary
		case magicExtBinary:
			return FormatExtBinary
		}
	}
	if looksLikeText(head) {
		return FormatText
	}
	return FormatUnknown
}

// looksLikeText accepts UTF-8 without control characters other than
// tab, CR and LF; the last rune may be cut short.
func looksLikeText(head []byte) bool {
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 {
			return len(head) < utf8.UTFMax && !utf8.FullRune(head)
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return false
		}
		head = head[n:]
	}
	return true
}

// MD5Name returns the MD5 by which an MD5 profile names a function: the
// low 64 bits (little-endian) of the MD5 digest of the name.
func MD5Name(name string) uint64 {
	sum := md5.Sum([]byte(name))
	return binary.LittleEndian.Uint64(sum[:8])
}

func hasUniqSuffix(name string) bool { return strings.Contains(name, uniqSuffix) }

// IsTextProfile tells whether head, the start of a file, begins like an
// LLVM text sample profile: its first line that is neither blank nor a
// comment is a "name:NUM:NUM" function header.
func IsTextProfile(head []byte) bool {
	for len(head) > 0 {
		line, rest, complete := bytes.Cut(head, []byte("\n"))
		head = rest
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if line[0] == ' ' {
			return false // a sample line before any header
		}
		if !complete {
			return looksLikeText(line) // a header cut short: cannot check more
		}
		_, _, _, ok := splitHead(string(bytes.TrimRight(line, "\r")))
		return ok
	}
	return false
}
