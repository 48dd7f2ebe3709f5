package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// writeCS writes the context-sensitive result of hybrid samples: the
// unwound contexts unsymbolized, or a CS sample profile.
func writeCS(opts Options, bins *binaries, h *hybridPath) error {
	if opts.Format == "pprof" {
		return fmt.Errorf("%s holds hybrid samples: --format=pprof takes call-stack samples (perf record -g without -b)", inputName(opts))
	}
	path, err := OutputPath(opts.Output, bins.primary().Path(), 1)
	if err != nil {
		return err
	}
	ctxs := h.contexts()
	if opts.SkipSymbolization {
		return writeFile(path, func(w io.Writer) error {
			return rawprof.WriteCS(w, rawContexts(ctxs), bins.primary().PreferredBase())
		})
	}
	gopts := h.opts.Profile
	gopts.FSDiscriminators = bins.generateOptions(0).FSDiscriminators
	res := csprofile.Generate(ctxs, csprofile.Binary{Code: instSizes{bins.primary()}, Syms: h.syms}, gopts)
	return writeSampleProfile(opts, path, res.Profile)
}

// rawContexts names the contexts for the unsymbolized profile.
func rawContexts(ctxs []csprofile.Context) []rawprof.Context {
	out := make([]rawprof.Context, len(ctxs))
	for i, c := range ctxs {
		out[i] = rawprof.Context{Name: sampleprof.ContextString(c.Frames), Counters: c.Counters}
	}
	return out
}
