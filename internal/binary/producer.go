package binary

import (
	"debug/dwarf"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/dwarfread"
)

// Compiler is the compiler of a binary's code, as its DWARF's
// DW_AT_producer names it ("GNU C17 12.2.0 -O2 -g", "Debian clang version
// 19.1.7").
type Compiler struct {
	Name  string // "gcc", "clang", or "" when no unit names a known one
	Major int    // the major version, 0 when unknown
}

// Compiler returns the compiler of the first compile unit whose producer
// names GCC's C or C++ front end or clang; assembler units ("GNU AS")
// and units without a producer are passed over. A binary without DWARF
// gives the zero Compiler.
func (f *File) Compiler() Compiler {
	d, err := f.DWARF()
	if err != nil {
		return Compiler{}
	}
	return compilerOf(d)
}

// compilerOf reads the producers of d's compile units, their children
// skipped, up to the first it knows.
func compilerOf(d *dwarf.Data) Compiler {
	r := dwarfread.NewReader(d)
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return Compiler{}
		}
		if p, ok := e.Val(dwarf.AttrProducer).(string); ok {
			if c := ParseProducer(p); c.Name != "" {
				return c
			}
		}
		r.SkipChildren()
	}
}

// ParseProducer reads a DW_AT_producer: GCC's front ends write "GNU
// <language> <version> <flags>" (the assembler "GNU AS <version>", which
// is not a compiler here); clang "[vendor ]clang version <version>".
func ParseProducer(p string) Compiler {
	fields := strings.Fields(p)
	if len(fields) >= 3 && fields[0] == "GNU" && fields[1] != "AS" {
		return Compiler{Name: "gcc", Major: majorVersion(fields[2])}
	}
	for i := 0; i+2 < len(fields); i++ {
		if fields[i] == "clang" && fields[i+1] == "version" {
			return Compiler{Name: "clang", Major: majorVersion(fields[i+2])}
		}
	}
	return Compiler{}
}

// majorVersion is the number before the first "." of v, 0 if none.
func majorVersion(v string) int {
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		return 0
	}
	return n
}
