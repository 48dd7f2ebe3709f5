package perfsyms

import (
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"strconv"
	"strings"
)

// loadKernel reads kallsyms: the running kernel's when it is the recorded
// one (or none was recorded), else perf's copy in the build-id cache.
func (n *Namer) loadKernel(id string) *table {
	path := n.cachePath("[kernel.kallsyms]", id, "kallsyms")
	if id == "" || runningKernelID(n.NotesPath) == id {
		path = n.KallsymsPath
	}
	t := &table{}
	if path == "" {
		return t
	}
	// One string holds every name: a symbol's name is a slice of it.
	text, err := readText(path)
	if err != nil {
		return t
	}
	t.syms = make([]sym, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if s, ok := parseKallsym(line); ok {
			t.syms = append(t.syms, s)
		}
	}
	return t.finish(false)
}

// readText reads a file whole into a string without copying it again:
// the size of a /proc file is not known before it is read.
func readText(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	_, err = io.Copy(&b, f)
	return b.String(), err
}

// parseKallsym reads `address type name [module]`; only kernel text
// symbols (types T, t, W, w) are kept, as perf keeps them for the kernel
// map (module symbols go to the modules' maps).
func parseKallsym(line string) (sym, bool) {
	addrText, rest, ok1 := strings.Cut(line, " ")
	typ, name, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || len(typ) != 1 || name == "" || strings.ContainsAny(name, " \t") {
		return sym{}, false
	}
	addr, err := strconv.ParseUint(addrText, 16, 64)
	if err != nil {
		return sym{}, false
	}
	bind := elf.STB_GLOBAL
	switch typ {
	case "T":
	case "t":
		bind = elf.STB_LOCAL
	case "W", "w":
		bind = elf.STB_WEAK
	default:
		return sym{}, false
	}
	return sym{start: addr, end: addr, name: name, bind: bind}, true
}

// runningKernelID reads the GNU build id note of the running kernel.
func runningKernelID(notes string) string {
	b, err := os.ReadFile(notes)
	if err != nil {
		return ""
	}
	for len(b) >= 12 {
		namesz, descsz, typ := le32(b), le32(b[4:]), le32(b[8:])
		b = b[12:]
		nameEnd, descEnd := align4(namesz), align4(namesz)+align4(descsz)
		if descEnd > uint32(len(b)) {
			return ""
		}
		if typ == 3 && namesz == 4 && string(b[:3]) == "GNU" {
			return hex.EncodeToString(b[nameEnd : nameEnd+descsz])
		}
		b = b[descEnd:]
	}
	return ""
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func align4(n uint32) uint32 { return (n + 3) &^ 3 }
