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

// AddTraces adds the traces of one input, whose stream saw srcStream
// traces, as LLVM's InstrProfWriter::addTemporalProfileTraces does: traces
// are cut to MaxLength, empty ones dropped; a sampled source (its stream
// past the reservoir) becomes the destination when this one is not; an
// unsampled source's traces are appended, each counted in the stream; a
// sampled one adds its stream size. Past the reservoir LLVM picks traces
// at random (std::mt19937); profgen keeps the first ones, so its output
// stays deterministic.
func (p *Profile) AddTraces(src []Trace, srcStream uint64, lim TraceLimits) {
	if len(src) == 0 {
		return // llvm adds no stream without traces
	}
	if uint64(len(p.Traces)) > lim.Reservoir {
		p.Traces = p.Traces[:lim.Reservoir]
	}
	src = cutTraces(src, lim.MaxLength)
	destSampled, srcSampled := p.TraceStream > lim.Reservoir, srcStream > lim.Reservoir
	if !destSampled && srcSampled {
		p.Traces, src = src, p.Traces
		p.TraceStream, srcStream = srcStream, p.TraceStream
		srcSampled = false
	}
	if !srcSampled {
		for _, t := range src {
			if p.TraceStream < lim.Reservoir {
				p.Traces = append(p.Traces, t)
			}
			p.TraceStream++
		}
		return
	}
	for _, t := range src {
		if uint64(len(p.Traces)) < lim.Reservoir {
			p.Traces = append(p.Traces, t)
		}
	}
	p.TraceStream += srcStream
}

// cutTraces cuts each trace to max references and drops the empty ones.
func cutTraces(ts []Trace, max uint64) []Trace {
	var out []Trace
	for _, t := range ts {
		if uint64(len(t.Refs)) > max {
			t.Refs = t.Refs[:max]
		}
		if len(t.Refs) > 0 {
			out = append(out, t)
		}
	}
	return out
}
