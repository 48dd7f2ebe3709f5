package main

import "math/rand/v2"

// BranchKind is a branch type as perf names it (PERF_BR_*).
type BranchKind uint8

const (
	KindUnknown BranchKind = iota
	KindCond
	KindUncond
	KindInd
	KindCall
	KindIndCall
	KindRet
	KindSyscall
)

// String is the name perf script prints for the kind ("-" when unknown).
func (k BranchKind) String() string {
	return [...]string{"-", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL"}[k]
}

// Entry is one LBR record: a taken branch.
type Entry struct {
	From, To uint64
	Kind     BranchKind
	Cycles   uint16 // instructions since the previous taken branch, capped
	Mispred  bool
}

// Sample is an LBR sample: the instruction the sample fired on and the last
// taken branches, newest first. Addresses are valgrind's.
type Sample struct {
	Seq     uint64 // 0-based sample number
	Insns   uint64 // instructions since the entry point
	IP      uint64
	Entries []Entry
	Stack   []uint64 // return addresses of the active calls, innermost first
}

// classifier says what kind of branch the instruction at from (size bytes)
// was, given that it went to to.
type classifier func(from uint64, size uint32, to uint64) BranchKind

// recorder turns an instruction stream into LBR samples: every instruction
// that does not start where the previous one ended is the target of a taken
// branch from the previous instruction. The last depth branches are kept in
// a ring; every period instructions a sample is emitted.
type recorder struct {
	period   uint64
	ring     []Entry // ring[(head-1) mod len] is the newest
	head     int
	filled   int
	classify classifier
	// toNext reports whether the instruction at an address branched
	// although the next one follows it (an unconditional branch to the
	// next instruction); nil: never.
	toNext  func(from uint64) bool
	rng     *rand.Rand
	mispred uint32 // per-mille of entries marked mispredicted
	emit    func(*Sample) error

	prevAddr    uint64
	prevSize    uint32
	started     bool
	insns       uint64
	sinceBranch uint64
	samples     uint64
	sample      Sample
}

func newRecorder(period uint64, depth int, seed uint64, classify classifier, emit func(*Sample) error) *recorder {
	r := &recorder{
		period:   period,
		ring:     make([]Entry, depth),
		classify: classify,
		mispred:  100,
		emit:     emit,
		sample:   Sample{Entries: make([]Entry, 0, depth)},
	}
	r.restart(seed)
	return r
}

// restart empties the ring and starts counting instructions, samples and
// random draws anew: the generator restarts at the binary's entry point,
// so that what runs before it (ld.so, whose work varies from run to run
// with the environment) does not shift where samples fall.
func (r *recorder) restart(seed uint64) {
	r.rng = rand.New(rand.NewPCG(seed, 0x6c62726765))
	r.head, r.filled, r.insns, r.sinceBranch, r.samples = 0, 0, 0, 0, 0
}

// instruction feeds one executed instruction.
func (r *recorder) instruction(addr uint64, size uint32) error {
	if r.started && addr == r.prevAddr {
		// valgrind shows each iteration of a rep-prefixed string
		// instruction as another execution; the CPU retires it once.
		return nil
	}
	if r.started && (addr != r.prevAddr+uint64(r.prevSize) || r.toNext != nil && r.toNext(r.prevAddr)) {
		r.push(r.prevAddr, r.prevSize, addr)
	}
	r.started, r.prevAddr, r.prevSize = true, addr, size
	r.insns++
	r.sinceBranch++
	if r.insns%r.period != 0 || r.filled == 0 {
		return nil
	}
	return r.emitSample(addr)
}

func (r *recorder) push(from uint64, size uint32, to uint64) {
	e := Entry{From: from, To: to, Kind: r.classify(from, size, to)}
	e.Cycles = uint16(min(r.sinceBranch, 65535))
	e.Mispred = r.rng.Uint32N(1000) < r.mispred
	r.ring[r.head] = e
	r.head = (r.head + 1) % len(r.ring)
	r.filled = min(r.filled+1, len(r.ring))
	r.sinceBranch = 0
}

func (r *recorder) emitSample(ip uint64) error {
	s := &r.sample
	s.Seq, s.Insns, s.IP, s.Entries = r.samples, r.insns, ip, s.Entries[:0]
	for i := 1; i <= r.filled; i++ {
		s.Entries = append(s.Entries, r.ring[(r.head-i+len(r.ring))%len(r.ring)])
	}
	r.samples++
	return r.emit(s)
}
