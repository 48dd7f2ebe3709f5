package perfsyms

import (
	"bufio"
	"debug/elf"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
)

// loadKernel reads kallsyms: the running kernel's when it is the recorded
// one (or none was recorded), else perf's copy in the build-id cache.
func (n *Namer) loadKernel() *table {
	id := n.buildIDs["[kernel.kallsyms]"]
	path := n.cachePath("[kernel.kallsyms]", id, "kallsyms")
	if id == "" || runningKernelID(n.NotesPath) == id {
		path = n.KallsymsPath
	}
	t := &table{}
	if path == "" {
		return t
	}
	f, err := os.Open(path)
	if err != nil {
		return t
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s, ok := parseKallsym(sc.Text()); ok {
			t.syms = append(t.syms, s)
		}
	}
	return t.finish(false)
}

// parseKallsym reads `address type name [module]`; only kernel text
// symbols (types T, t, W, w) are kept, as perf keeps them for the kernel.
func parseKallsym(line string) (sym, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || len(f) > 3 || len(f[1]) != 1 {
		return sym{}, false
	}
	addr, err := strconv.ParseUint(f[0], 16, 64)
	if err != nil {
		return sym{}, false
	}
	bind := elf.STB_GLOBAL
	switch f[1] {
	case "T":
	case "t":
		bind = elf.STB_LOCAL
	case "W", "w":
		bind = elf.STB_WEAK
	default:
		return sym{}, false
	}
	return sym{start: addr, end: addr, name: f[2], bind: bind}, true
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
