package perfsyms

import (
	"bufio"
	"bytes"
	"debug/elf"
	stdbinary "encoding/binary"
	"encoding/hex"
	"io"
	"os"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/hexnum"
)

// loadKernel reads kallsyms: perf's copy of the recorded kernel's in the
// build-id cache (as perf report does: a file read, where the kernel
// makes /proc/kallsyms as it is read, ~35 ms of system time), else the
// running kernel's when it is the recorded one (or none was recorded).
func (n *Namer) loadKernel(id string) *table {
	path := n.cachePath("[kernel.kallsyms]", id, "kallsyms")
	if id == "" || !isFile(path) && runningKernelID(n.NotesPath) == id {
		path = n.KallsymsPath
	}
	if path == "" {
		return &table{}
	}
	f, err := os.Open(path)
	if err != nil {
		return &table{}
	}
	defer f.Close()
	t, err := readKallsyms(f)
	if err != nil {
		return &table{}
	}
	return t.finish(false)
}

// kallsymsBuffer is the size of the reads of kallsyms: the kernel makes
// /proc/kallsyms (about 5 MB) as it is read, faster in large reads.
const kallsymsBuffer = 1 << 20

// readKallsyms reads the kernel text symbols of kallsyms text, line by
// line: only the names are kept, not the text.
func readKallsyms(r io.Reader) (*table, error) {
	t := &table{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, kallsymsBuffer), kallsymsBuffer)
	for sc.Scan() {
		if addr, name, bind, ok := parseKallsym(sc.Bytes()); ok {
			add(t, addr, addr, name, bind)
		}
	}
	return t, sc.Err()
}

// parseKallsym reads `address type name [module]`; only kernel text
// symbols (types T, t, W, w) are kept, as perf keeps them for the kernel
// map (module symbols go to the modules' maps).
func parseKallsym(line []byte) (addr uint64, name []byte, bind elf.SymBind, ok bool) {
	addrText, rest, ok1 := bytes.Cut(line, []byte{' '})
	typ, name, ok2 := bytes.Cut(rest, []byte{' '})
	if !ok1 || !ok2 || len(typ) != 1 || len(name) == 0 || bytes.IndexByte(name, ' ') >= 0 || bytes.IndexByte(name, '\t') >= 0 {
		return 0, nil, 0, false
	}
	addr, ok = hexnum.Parse(addrText)
	if !ok {
		return 0, nil, 0, false
	}
	switch typ[0] {
	case 'T':
		bind = elf.STB_GLOBAL
	case 't':
		bind = elf.STB_LOCAL
	case 'W', 'w':
		bind = elf.STB_WEAK
	default:
		return 0, nil, 0, false
	}
	return addr, name, bind, true
}

// runningKernelID reads the GNU build id note of the running kernel
// (/sys/kernel/notes, in the host's byte order).
func runningKernelID(notes string) string {
	b, err := os.ReadFile(notes)
	if err != nil {
		return ""
	}
	return hex.EncodeToString(binary.BuildIDNote(b, stdbinary.NativeEndian))
}

// isFile reports whether path names a regular file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
