package main

// multiScenario: K processes of the binary run concurrently, each at its
// own base; their samples interleave.
type multiScenario struct {
	*multiScript
	procs int
}

func (sc *multiScenario) begin() error {
	if err := sc.open(); err != nil {
		return err
	}
	for i := 1; i <= sc.procs; i++ {
		if _, err := sc.exec(sc.shell + i); err != nil {
			return err
		}
	}
	return nil
}

func (sc *multiScenario) sample(s *Sample) error { return sc.sampleAny(s) }
func (sc *multiScenario) end() error             { return sc.finish() }

// forkScenario: one process runs alone for a while, then forks two
// children, which inherit its mappings; the three interleave.
type forkScenario struct {
	*multiScript
	after  uint64 // samples of the parent alone
	seen   uint64
	parent *proc
	forked bool
	nchild int
}

func (sc *forkScenario) begin() (err error) {
	if err := sc.open(); err != nil {
		return err
	}
	sc.parent, err = sc.exec(sc.shell + 1)
	return err
}

func (sc *forkScenario) sample(s *Sample) error {
	if sc.seen == sc.after && !sc.forked {
		sc.forked = true
		for i := 1; i <= sc.nchild; i++ {
			if _, err := sc.fork(sc.parent, sc.parent.pid+i); err != nil {
				return err
			}
		}
	}
	sc.seen++
	return sc.sampleAny(s)
}

func (sc *forkScenario) end() error { return sc.finish() }

// reuseScenario: process A runs through the whole trace; process B (a
// fixed PID) exits after `every` samples of its own and a new process with
// the same PID maps the binary at another base, again and again.
type reuseScenario struct {
	*multiScript
	every uint64
	b     *proc
}

func (sc *reuseScenario) begin() (err error) {
	if err := sc.open(); err != nil {
		return err
	}
	if _, err := sc.exec(sc.shell + 1); err != nil {
		return err
	}
	sc.b, err = sc.exec(sc.shell + 2)
	return err
}

func (sc *reuseScenario) sample(s *Sample) error {
	p := sc.pick()
	if p == sc.b && p.samples == sc.every {
		if err := sc.exit(p); err != nil {
			return err
		}
		b, err := sc.exec(p.pid)
		if err != nil {
			return err
		}
		sc.b, p = b, b
	}
	return sc.writeSample(p, s)
}

func (sc *reuseScenario) end() error { return sc.finish() }
