package fpskid

import (
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
)

// Prechecker checks the edges of call stacks on a goroutine of its own
// while the stacks are being aggregated (aggregate.Stacks.WatchNewStacks
// hands them), so that Repair, once the input is read, finds most of its
// edges checked: the checks overlap the reading instead of following it.
// What it finds does not depend on when it ran: a fix names no object it
// would have to make, and Repair settles the fixes in its own order.
type Prechecker struct {
	batches chan stackBatch
	done    chan struct{}
	codes   []*code
	fixes   map[edgeKey]fix
	closed  bool
}

// stackBatch is what WatchNewStacks hands.
type stackBatch struct {
	stacks  []*aggregate.Stack
	objects []aggregate.Object
}

// NewPrechecker starts checking the stacks Add is given, in the code of
// bins (indexed as aggregate.Object.Binary).
func NewPrechecker(bins []*binary.File) *Prechecker {
	p := &Prechecker{batches: make(chan stackBatch, 16), done: make(chan struct{}), fixes: map[edgeKey]fix{}}
	go p.run(bins)
	return p
}

// Add hands stacks, whose objects are objects, to the checks.
func (p *Prechecker) Add(stacks []*aggregate.Stack, objects []aggregate.Object) {
	p.batches <- stackBatch{stacks, objects}
}

// Close ends the checks, no stacks coming after, and waits for them to
// finish: the binaries must stay open until then. It may be called
// again, and on nil.
func (p *Prechecker) Close() {
	if p == nil {
		return
	}
	if !p.closed {
		p.closed = true
		close(p.batches)
	}
	<-p.done
}

// wait ends the checks and returns the code they decoded, and the fixes
// of the edges they checked.
func (p *Prechecker) wait() ([]*code, map[edgeKey]fix) {
	p.Close()
	return p.codes, p.fixes
}

func (p *Prechecker) run(bins []*binary.File) {
	defer close(p.done)
	p.codes = newCodes(bins)
	for b := range p.batches {
		k := checker{objects: b.objects, codes: p.codes}
		for _, s := range b.stacks {
			p.checkStack(k, s)
		}
	}
}

// checkStack checks the edges of s not checked before.
func (p *Prechecker) checkStack(k checker, s *aggregate.Stack) {
	first := firstUserFrame(s.Locs, k.objects)
	for i := first; i+1 < len(s.Locs); i++ {
		e := edge{callee: s.Locs[i], caller: s.Locs[i+1], leaf: i == first}
		if _, ok := p.fixes[e.key()]; !ok {
			p.fixes[e.key()] = k.check(e)
		}
	}
}
