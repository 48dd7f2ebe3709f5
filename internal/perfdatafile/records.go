package perfdatafile

import "fmt"

// Mmap is a PERF_RECORD_MMAP or PERF_RECORD_MMAP2.
type Mmap struct {
	PID, TID         int32
	Addr, Len, PgOff uint64
	Maj, Min         uint32
	Ino, InoGen      uint64
	BuildID          []byte // MMAP2 with MiscMmapBuildID
	Prot, Flags      uint32 // MMAP2 only
	Path             string
	V2               bool
}

// Task is a PERF_RECORD_FORK or PERF_RECORD_EXIT.
type Task struct {
	PID, PPID, TID, PTID int32
	Time                 uint64
}

// Comm is a PERF_RECORD_COMM.
type Comm struct {
	PID, TID int32
	Comm     string
	Exec     bool
}

// ParseMmap decodes an MMAP or MMAP2 record.
func (r *Reader) ParseMmap(rec *Record) (Mmap, error) {
	d := decoder{b: rec.Body()}
	var m Mmap
	pid, tid := d.u32pair()
	m.PID, m.TID = int32(pid), int32(tid)
	m.Addr, m.Len, m.PgOff = d.u64(), d.u64(), d.u64()
	if rec.Type == RecordMmap2 {
		m.V2 = true
		if d.err == "" && len(d.b)-d.pos >= 24 && rec.Misc&MiscMmapBuildID != 0 {
			n := min(int(d.b[d.pos]), 20)
			m.BuildID = d.b[d.pos+4 : d.pos+4+n]
			d.skip(24)
		} else {
			m.Maj, m.Min = d.u32pair()
			m.Ino, m.InoGen = d.u64(), d.u64()
		}
		m.Prot, m.Flags = d.u32pair()
	}
	if d.err != "" {
		return m, r.recordError(rec, d.err)
	}
	m.Path = cString(d.b[d.pos:])
	return m, nil
}

// ParseTask decodes a FORK or EXIT record.
func (r *Reader) ParseTask(rec *Record) (Task, error) {
	d := decoder{b: rec.Body()}
	pid, ppid := d.u32pair()
	tid, ptid := d.u32pair()
	t := Task{PID: int32(pid), PPID: int32(ppid), TID: int32(tid), PTID: int32(ptid), Time: d.u64()}
	if d.err != "" {
		return t, r.recordError(rec, d.err)
	}
	return t, nil
}

// ParseComm decodes a COMM record.
func (r *Reader) ParseComm(rec *Record) (Comm, error) {
	d := decoder{b: rec.Body()}
	pid, tid := d.u32pair()
	if d.err != "" {
		return Comm{}, r.recordError(rec, d.err)
	}
	return Comm{PID: int32(pid), TID: int32(tid), Comm: cString(d.b[d.pos:]), Exec: rec.Misc&MiscCommExec != 0}, nil
}

// String names a record type as perf does (PERF_RECORD_ without prefix).
func TypeName(t uint32) string {
	names := map[uint32]string{RecordMmap: "MMAP", RecordLost: "LOST", RecordComm: "COMM", RecordExit: "EXIT",
		RecordThrottle: "THROTTLE", RecordUnthrottle: "UNTHROTTLE", RecordFork: "FORK", RecordRead: "READ",
		RecordSample: "SAMPLE", RecordMmap2: "MMAP2", RecordFinishedRound: "FINISHED_ROUND", RecordCompressed: "COMPRESSED"}
	if n, ok := names[t]; ok {
		return n
	}
	return fmt.Sprintf("type %d", t)
}
