// Command perfsplit cuts perf.data recordings into many smaller perf.data
// files, as if each had been recorded on a host of its own: the fleet
// pipeline's tests and benchmark (fleet/) read thousands of them.
//
// Usage:
//
//	perfsplit -parts N -o DIR [-name PREFIX] FILE.perf.data...
//
// Each part places its samples in their processes as the whole recording
// does. Part i is DIR/PREFIX-i.perf.data (i zero-padded to four digits), cut from input
// i mod len(inputs); the samples of an input are dealt in turn to its
// parts. Each part keeps the records of the processes its samples are of
// (and of their parents, for forked children), and every record of no
// process: as a host that ran those processes would have recorded them.
// Header, attributes and feature sections are the input's, with the data
// section and the feature offsets adjusted. The same inputs give the same
// bytes.
//
// File-mode perf.data only, without compressed records (perf record -z).
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/profgen/profgen/internal/perfdatafile"
)

func main() {
	parts := flag.Int("parts", 0, "number of parts to write")
	out := flag.String("o", "", "output directory")
	name := flag.String("name", "part", "file name prefix of the parts")
	flag.Parse()
	if *parts <= 0 || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: perfsplit -parts N -o DIR [-name PREFIX] FILE.perf.data...")
		os.Exit(2)
	}
	if err := run(flag.Args(), *parts, *out, *name); err != nil {
		fmt.Fprintln(os.Stderr, "perfsplit:", err)
		os.Exit(1)
	}
}

// run deals the parts to the inputs in turn and writes each input's.
func run(inputs []string, parts int, out, name string) error {
	if parts < len(inputs) {
		return fmt.Errorf("-parts %d: fewer parts than the %d inputs", parts, len(inputs))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for j, in := range inputs {
		var ids []int
		for i := j; i < parts; i += len(inputs) {
			ids = append(ids, i)
		}
		if err := splitFile(in, ids, func(i int) string { return filepath.Join(out, partName(name, i)) }); err != nil {
			return err
		}
	}
	return nil
}

// partName is the file name of part i.
func partName(prefix string, i int) string { return fmt.Sprintf("%s-%04d.perf.data", prefix, i) }

// layout is where a file-mode perf.data keeps its data section.
type layout struct {
	dataOff, dataSize uint64
}

var le = binary.LittleEndian

// The file header's fields (perf_file_header): magic, size, attr_size,
// then the attrs, data and event_types sections ({offset, size} each).
const (
	headerDataOff  = 40
	headerDataSize = 48
	headerSize     = 104
	sectionSize    = 16
	recordSample   = perfdatafile.RecordSample
)

// splitFile writes the parts ids of the perf.data file at path, named by
// partPath.
func splitFile(path string, ids []int, partPath func(int) string) error {
	file, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(file) < headerSize || le.Uint64(file[8:]) != headerSize {
		return fmt.Errorf("%s: not a file-mode perf.data", path)
	}
	lay := layout{dataOff: le.Uint64(file[headerDataOff:]), dataSize: le.Uint64(file[headerDataSize:])}
	if lay.dataOff+lay.dataSize > uint64(len(file)) {
		return fmt.Errorf("%s: data section past the end of the file", path)
	}
	datas, err := dealRecords(path, len(ids))
	if err != nil {
		return err
	}
	for k, id := range ids {
		if err := os.WriteFile(partPath(id), partFile(file, lay, datas[k]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// dealRecords reads the records of path and returns n data sections: the
// samples dealt in turn, and in each the other records of the processes
// whose samples it holds (and of their parents, whose mappings a forked
// child inherits), and every record of no process (the kernel's MMAP,
// FINISHED_ROUND, ...).
func dealRecords(path string, n int) ([][]byte, error) {
	pids, err := partPIDs(path, n)
	if err != nil {
		return nil, err
	}
	datas := make([][]byte, n)
	samples := 0
	err = eachRecord(path, func(rec *perfdatafile.Record, pid int32, ok bool) {
		if rec.Type == recordSample {
			datas[samples%n] = append(datas[samples%n], rec.Data...)
			samples++
			return
		}
		for i := range datas {
			if !ok || pid <= 0 || pids[i][pid] {
				datas[i] = append(datas[i], rec.Data...)
			}
		}
	})
	return datas, err
}

// partPIDs is, per part, the processes whose records it needs: those of
// its samples and their ancestors (by FORK records).
func partPIDs(path string, n int) ([]map[int32]bool, error) {
	pids := make([]map[int32]bool, n)
	for i := range pids {
		pids[i] = map[int32]bool{}
	}
	parent := map[int32]int32{}
	samples := 0
	err := eachRecord(path, func(rec *perfdatafile.Record, pid int32, ok bool) {
		switch {
		case rec.Type == recordSample && ok:
			pids[samples%n][pid] = true
			samples++
		case rec.Type == recordSample:
			samples++
		case rec.Type == perfdatafile.RecordFork && ok:
			parent[pid] = parentOf(rec)
		}
	})
	for _, set := range pids {
		for pid := range set {
			for p, ok := parent[pid]; ok && p > 0 && !set[p]; p, ok = parent[p] {
				set[p] = true
			}
		}
	}
	return pids, err
}

// parentOf is the parent process of a FORK record (its body: pid, ppid).
func parentOf(rec *perfdatafile.Record) int32 { return int32(le.Uint32(rec.Body()[4:])) }

// eachRecord calls fn with each record of path and its process (ok false
// for a record of no process).
func eachRecord(path string, fn func(rec *perfdatafile.Record, pid int32, ok bool)) error {
	r, err := perfdatafile.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	var s perfdatafile.Sample
	for r.Next() {
		rec := r.Record()
		if rec.InCompressed {
			return fmt.Errorf("%s: compressed records (perf record -z) are not split", path)
		}
		pid, ok, err := recordPID(r, rec, &s)
		if err != nil {
			return err
		}
		fn(rec, pid, ok)
	}
	return r.Err()
}

// recordPID is the process of a sample, MMAP, MMAP2, COMM, FORK or EXIT
// record (the first field of the latter's bodies).
func recordPID(r *perfdatafile.Reader, rec *perfdatafile.Record, s *perfdatafile.Sample) (int32, bool, error) {
	switch rec.Type {
	case recordSample:
		if err := r.ParseSample(rec, s); err != nil {
			return 0, false, err
		}
		return s.PID, true, nil
	case perfdatafile.RecordMmap, perfdatafile.RecordMmap2, perfdatafile.RecordComm, perfdatafile.RecordFork, perfdatafile.RecordExit:
		if len(rec.Body()) < 8 {
			return 0, false, fmt.Errorf("%s: record at byte %d too short", r.Name(), rec.Offset)
		}
		return int32(le.Uint32(rec.Body())), true, nil
	}
	return 0, false, nil
}

// partFile is file with its data section replaced by data: the header's
// data size and the feature sections' offsets (the table of
// perf_file_section that follows the data section) are moved.
func partFile(file []byte, lay layout, data []byte) []byte {
	end := lay.dataOff + lay.dataSize
	out := make([]byte, 0, int(lay.dataOff)+len(data)+len(file)-int(end))
	out = append(out, file[:lay.dataOff]...)
	out = append(out, data...)
	feats := append([]byte(nil), file[end:]...)
	delta := uint64(len(data)) - lay.dataSize // wraps for a shrink; the sums wrap back
	for i := 0; i < featureCount(file)*sectionSize && i+sectionSize <= len(feats); i += sectionSize {
		le.PutUint64(feats[i:], le.Uint64(feats[i:])+delta)
	}
	out = append(out, feats...)
	le.PutUint64(out[headerDataSize:], uint64(len(data)))
	return out
}

// featureCount is the number of feature bits set in the header's
// adds_features bitmap: the entries of the feature section table.
func featureCount(file []byte) int {
	n := 0
	for i := 0; i < 4; i++ {
		for w := le.Uint64(file[72+8*i:]); w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}
