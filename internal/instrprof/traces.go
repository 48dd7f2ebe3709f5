package instrprof

// Trace is a temporal profile trace: the functions of one run in the order
// they were first called, as name references, and its weight.
type Trace struct {
	Weight uint64
	Refs   []uint64
}

// TraceLimits are llvm-profdata merge's temporal trace limits.
type TraceLimits struct {
	Reservoir uint64 // --temporal-profile-trace-reservoir-size (100)
	MaxLength uint64 // --temporal-profile-max-trace-length (10000)
}

// DefaultTraceLimits are llvm-profdata's defaults.
var DefaultTraceLimits = TraceLimits{Reservoir: 100, MaxLength: 10000}

// AddTraces adds the traces of one input as LLVM's
// InstrProfWriter::addTemporalProfileTraces does while no stream exceeds
// the reservoir: traces are cut to MaxLength, empty ones dropped, the rest
// appended, each counted in the stream. Past the reservoir LLVM replaces
// traces at random (std::mt19937); profgen keeps the first ones, so its
// output stays deterministic.
func (p *Profile) AddTraces(src []Trace, lim TraceLimits) {
	if uint64(len(p.Traces)) > lim.Reservoir {
		p.Traces = p.Traces[:lim.Reservoir]
	}
	for _, t := range src {
		if uint64(len(t.Refs)) > lim.MaxLength {
			t.Refs = t.Refs[:lim.MaxLength]
		}
		if len(t.Refs) == 0 {
			continue
		}
		if p.TraceStream < lim.Reservoir {
			p.Traces = append(p.Traces, t)
		}
		p.TraceStream++
	}
}
