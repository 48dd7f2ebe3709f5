package callstack

import "sort"

// mapping is one executable mapping of a process.
type mapping struct {
	start, end, pgoff uint64
	path              string
}

// Spaces holds the executable mappings of every process, updated by one
// switch over the record kinds.
type Spaces struct {
	pids map[int][]mapping // sorted by start, disjoint
}

// NewSpaces returns an empty table.
func NewSpaces() *Spaces { return &Spaces{pids: map[int][]mapping{}} }

// Apply updates the table with an MMAP, FORK, EXIT or exec event; other
// records are ignored.
func (s *Spaces) Apply(rec any) {
	switch r := rec.(type) {
	case *Mmap:
		if r.Executable && r.Len > 0 {
			s.mmap(r)
		}
	case *Fork:
		if r.PID != r.ParentPID { // a new process, not a thread
			s.pids[r.PID] = append([]mapping(nil), s.pids[r.ParentPID]...)
		}
	case *Exit:
		if r.PID == r.TID {
			delete(s.pids, r.PID)
		}
	case *Exec:
		delete(s.pids, r.PID)
	}
}

// mmap adds a mapping, replacing the parts of older ones it overlaps.
func (s *Spaces) mmap(r *Mmap) {
	m := mapping{r.Start, r.Start + r.Len, r.PgOff, r.Path}
	var out []mapping
	for _, o := range s.pids[r.PID] {
		if o.end <= m.start || o.start >= m.end {
			out = append(out, o)
			continue
		}
		if o.start < m.start {
			out = append(out, mapping{o.start, m.start, o.pgoff, o.path})
		}
		if o.end > m.end {
			out = append(out, mapping{m.end, o.end, o.pgoff + (m.end - o.start), o.path})
		}
	}
	out = append(out, m)
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	s.pids[r.PID] = out
}

// Lookup returns the mapped path and file offset of addr in process pid.
func (s *Spaces) Lookup(pid int, addr uint64) (path string, off uint64, ok bool) {
	ms := s.pids[pid]
	i := sort.Search(len(ms), func(i int) bool { return ms[i].end > addr })
	if i == len(ms) || ms[i].start > addr {
		return "", 0, false
	}
	m := ms[i]
	return m.path, addr - m.start + m.pgoff, true
}
