package sampleprof

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrNoSections is returned by WriteSectionInfo for a profile that is not
// extbinary: only extbinary has a section table.
var ErrNoSections = errors.New("only extbinary sample profiles have sections")

// WriteSectionInfo writes the section table of an extbinary profile as
// llvm-profdata show --show-sec-info-only does: each section's name,
// offset, size and flags, then the header, sections and file sizes.
func WriteSectionInfo(w io.Writer, data []byte) error {
	d := &decoder{data: data}
	if readHeader(d) != FormatExtBinary {
		return ErrNoSections
	}
	hs := readSecHeaders(d)
	if d.err != nil {
		return d.err
	}
	if len(hs) == 0 {
		return &FormatError{Offset: int64(d.pos), Err: errors.New("empty section header table")}
	}
	var total, size uint64
	for _, h := range hs {
		fmt.Fprintf(w, "%s - Offset: %d, Size: %d, Flags: %s\n", sectionName(h.typ), h.offset, h.size, sectionFlags(h))
		total += h.size
		size = max(size, h.offset+h.size)
	}
	fmt.Fprintf(w, "Header Size: %d\nTotal Sections Size: %d\nFile Size: %d\n", hs[0].offset, total, size)
	return nil
}

func sectionName(typ uint64) string {
	switch typ {
	case 0:
		return "InvalidSection"
	case secProfSummary:
		return "ProfileSummarySection"
	case secNameTable:
		return "NameTableSection"
	case secProfileSymbolList:
		return "ProfileSymbolListSection"
	case secFuncOffsetTable:
		return "FuncOffsetTableSection"
	case secFuncMetadata:
		return "FunctionMetadata"
	case secCSNameTable:
		return "CSNameTableSection"
	case secLBRProfile:
		return "LBRProfileSection"
	}
	return "UnknownSection"
}

// sectionFlags names a section's flags as LLVM does: "{compressed,flat,…}".
func sectionFlags(h secHeader) string {
	var names []string
	add := func(bit uint64, name string) {
		if h.flags&bit != 0 {
			names = append(names, name)
		}
	}
	add(secFlagCompress, "compressed")
	add(secFlagFlat, "flat")
	switch h.typ {
	case secNameTable:
		if h.flags&secFlagFixedLengthMD5 != 0 {
			names = append(names, "fixlenmd5")
		} else {
			add(secFlagMD5Name, "md5")
		}
		add(secFlagUniqSuffix, "uniq")
	case secProfSummary:
		add(secFlagPartial, "partial")
		add(secFlagFullContext, "context")
		add(secFlagIsPreInlined, "preInlined")
		add(secFlagFSDiscriminator, "fs-discriminator")
	case secFuncOffsetTable:
		add(secFlagOrdered, "ordered")
	case secFuncMetadata:
		add(secFlagIsProbeBased, "probe")
		add(secFlagHasAttribute, "attr")
	}
	return "{" + strings.Join(names, ",") + "}"
}
