// Package profformat tells what a profile file holds from its first bytes.
// It keeps the one table of file magics (raw and indexed instrumentation
// profiles in both byte orders and widths, binary and extbinary sample
// profiles, gzipped pprof) and the tests that tell the two text formats
// apart. Readers and writers take their magic numbers from here; commands
// sniff their inputs with Sniff or SniffFile.
package profformat

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/leb128"
)

// Format is what a profile file holds.
type Format int

// The formats Sniff tells apart.
const (
	Unknown         Format = iota
	RawLE64                // .profraw, 64-bit little-endian
	RawLE32                // .profraw, 32-bit little-endian
	RawBE64                // .profraw, 64-bit big-endian
	RawBE32                // .profraw, 32-bit big-endian
	Indexed                // indexed .profdata
	SampleBinary           // sample profile, SPF_Binary
	SampleExtBinary        // sample profile, SPF_Ext_Binary
	SampleText             // sample profile, LLVM's text format
	SampleGCC              // sample profile, GCC AutoFDO (gcov; versions "*704", 1, 2, 3)
	InstrText              // instrumentation profile, text (.proftext)
	GzipPprof              // gzipped pprof
	AddressStacks          // profgen's address profile of call stacks (package addrprof)
	UnsymbolizedLBR        // llvm-profgen's unsymbolized profile, without contexts
	UnsymbolizedCS         // llvm-profgen's unsymbolized profile, with contexts
	MemProfRaw             // raw MemProf heap profile (.memprofraw)
	MemProfYAML            // MemProf heap profile in llvm's YAML (LLVM 20 on)
)

var formatNames = [...]string{"unknown", "raw (64-bit little-endian)", "raw (32-bit little-endian)",
	"raw (64-bit big-endian)", "raw (32-bit big-endian)", "indexed", "binary sample profile",
	"extbinary sample profile", "text sample profile", "GCC AutoFDO sample profile", "instrumentation text profile", "gzipped pprof",
	"profgen address profile", "unsymbolized profile (LBR)", "unsymbolized profile (CS)", "raw MemProf profile", "MemProf YAML profile"}

func (f Format) String() string { return formatNames[f] }

// Kind is the family a format belongs to.
type Kind int

// Profile families: they are never merged together.
const (
	KindUnknown Kind = iota
	KindSample
	KindInstr
	KindPprof
	KindAddress // address profiles: before symbolization (issue 25's pivot)
)

func (k Kind) String() string {
	return [...]string{"unknown", "sample", "instrumentation", "pprof", "address"}[k]
}

// KindOfFlag is the kind llvm-profdata's --instr or --sample names ("instr"
// or "sample"); KindUnknown for neither.
func KindOfFlag(flag string) Kind {
	return map[string]Kind{"instr": KindInstr, "sample": KindSample}[flag]
}

// WithArticle is k's name after "a" or "an".
func (k Kind) WithArticle() string {
	if k == KindUnknown || k == KindInstr || k == KindAddress {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// IsRaw reports whether f is a raw instrumentation profile, of any word
// size and byte order.
func (f Format) IsRaw() bool {
	return f == RawLE64 || f == RawLE32 || f == RawBE64 || f == RawBE32
}

// Kind returns the family of f.
func (f Format) Kind() Kind {
	switch f {
	case RawLE64, RawLE32, RawBE64, RawBE32, Indexed, InstrText, MemProfRaw, MemProfYAML:
		return KindInstr
	case SampleBinary, SampleExtBinary, SampleText, SampleGCC:
		return KindSample
	case GzipPprof:
		return KindPprof
	case AddressStacks, UnsymbolizedLBR, UnsymbolizedCS:
		return KindAddress
	}
	return KindUnknown
}

// Magic numbers, as the u64 words the files start with.
const (
	RawMagic64 = uint64(255)<<56 | uint64('l')<<48 | uint64('p')<<40 | uint64('r')<<32 | uint64('o')<<24 | uint64('f')<<16 | uint64('r')<<8 | 129
	RawMagic32 = uint64(255)<<56 | uint64('l')<<48 | uint64('p')<<40 | uint64('r')<<32 | uint64('o')<<24 | uint64('f')<<16 | uint64('R')<<8 | 129
	// IndexedMagic is "\xfflprofi\x81" on disk (little-endian word).
	IndexedMagic = uint64(0x8169666f72706cff)
	// MemProfRawMagic starts a raw MemProf profile ("\x81rforpm\xff").
	MemProfRawMagic = uint64(255)<<56 | uint64('m')<<48 | uint64('p')<<40 | uint64('r')<<32 | uint64('o')<<24 | uint64('f')<<16 | uint64('r')<<8 | 129
	// Sample profiles: 'SPROF42' and a format byte, stored as a ULEB128.
	sampleMagicBase      = uint64('S')<<56 | uint64('P')<<48 | uint64('R')<<40 | uint64('O')<<32 | uint64('F')<<24 | uint64('4')<<16 | uint64('2')<<8
	SampleBinaryMagic    = sampleMagicBase | 0xff
	SampleExtBinaryMagic = sampleMagicBase | 4
)

// magics is the table: the bytes a file of each format starts with.
var magics = []struct {
	format Format
	bytes  string
}{
	{RawLE64, le(RawMagic64)},
	{RawLE32, le(RawMagic32)},
	{RawBE64, be(RawMagic64)},
	{RawBE32, be(RawMagic32)},
	{Indexed, le(IndexedMagic)},
	{SampleBinary, string(leb128.AppendUint(nil, SampleBinaryMagic))},
	{SampleExtBinary, string(leb128.AppendUint(nil, SampleExtBinaryMagic))},
	{SampleGCC, "adcg*704"},
	{SampleGCC, "adcg\x01\x00\x00\x00"},
	{SampleGCC, "adcg\x02\x00\x00\x00"},
	{SampleGCC, "adcg\x03\x00\x00\x00"},
	{GzipPprof, "\x1f\x8b"},
	{MemProfRaw, le(MemProfRawMagic)},
}

func le(m uint64) string { return string(binary.LittleEndian.AppendUint64(nil, m)) }
func be(m uint64) string { return string(binary.BigEndian.AppendUint64(nil, m)) }

// HeadSize is how many leading bytes SniffFile reads: enough for the text
// tests to see a first function header.
const HeadSize = 4096

// Sniff tells the format of a file from its first bytes: a magic of the
// table, else one of the text formats, else Unknown.
func Sniff(head []byte) Format {
	for _, m := range magics {
		if len(head) >= len(m.bytes) && string(head[:len(m.bytes)]) == m.bytes {
			return m.format
		}
	}
	switch {
	case bytes.HasPrefix(head, []byte(AddressHeader)):
		return AddressStacks
	case bytes.HasPrefix(head, []byte("---")):
		return MemProfYAML // llvm's YAMLMemProfReader::hasFormat
	case IsUnsymbolizedLBR(head):
		return UnsymbolizedLBR
	case IsUnsymbolizedCS(head):
		return UnsymbolizedCS
	case IsSampleText(head):
		return SampleText
	case IsInstrText(head):
		return InstrText
	}
	return Unknown
}

// SniffFile reads the first HeadSize bytes of path and sniffs them.
func SniffFile(path string) (Format, error) {
	head, err := ReadHead(path)
	if err != nil {
		return Unknown, err
	}
	return Sniff(head), nil
}

// ReadHead reads the first HeadSize bytes of path (fewer in a shorter file).
func ReadHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return head[:n], nil
}
