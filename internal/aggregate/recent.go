package aggregate

// The frames of a sample come from a few DSOs, mostly the profiled binary
// and the kernel, and the native perf.data reader hands out one string per
// mapping for a DSO's path: comparing a path with the last few seen is
// then a pointer comparison, cheaper than matching it to the binaries and
// hashing it into the object table for every frame.

// recentDSO is what place and foreign need to know of a DSO path.
type recentDSO struct {
	path   string
	binary int   // binaryOf(path)
	obj    int32 // object(path, ...), -1 until made
	used   bool
}

// recentDSOs holds the last DSO paths seen, replaced in turn.
type recentDSOs struct {
	entries [4]recentDSO
	next    int
}

// dso returns what is known of the DSO at path.
func (a *Stacks) dso(path string) *recentDSO {
	r := &a.recent
	for i := range r.entries {
		if d := &r.entries[i]; d.used && d.path == path {
			return d
		}
	}
	d := &r.entries[r.next]
	r.next = (r.next + 1) % len(r.entries)
	*d = recentDSO{path: path, binary: a.binaryOf(path), obj: -1, used: true}
	if i, ok := a.objects[path]; ok {
		d.obj = i
	}
	return d
}

// objectOf is object(d.path, bi, kernel), remembered in d: an object,
// once made, keeps its index whatever bi and kernel later calls give.
func (a *Stacks) objectOf(d *recentDSO, bi int, kernel bool) int32 {
	if d.obj < 0 {
		d.obj = a.object(d.path, bi, kernel)
	}
	if a.earliest {
		a.noteSeen(d.obj)
	}
	return d.obj
}
