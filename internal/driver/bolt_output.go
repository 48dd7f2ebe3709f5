package driver

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/boltprof"
)

// The rows of outputTable for BOLT (package boltprof): the fdata and the
// pre-aggregated text of branch stacks, counted as traces during the scan
// (lbrPath), and the no_lbr fdata of IP samples, from the call-stack
// counts' leaves (perf2bolt --ba).

// lbrFdata is the fdata of the traces of branch stacks, as perf2bolt -p
// writes it.
func lbrFdata(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	return lbrFiles(o, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		funcs, err := boltFuncs(one, 0)
		if err != nil {
			return profileFile{}, err
		}
		fd := boltprof.BuildFdata(one.primary(), funcs, c.traces.traces)
		if fd.Invalid+fd.OutOfRange > 0 {
			fmt.Fprintf(o.Stderr, "profgen: BOLT: %s%d traces leave their function's CFG (perf2bolt's mismatching traces), %d have an end outside every function (out of range)\n",
				binaryPrefix(bins, one.primary()), fd.Invalid, fd.OutOfRange)
		}
		return profileFile{write: func(w io.Writer) error {
			_, err := fd.WriteTo(w)
			return err
		}}, nil
	})
}

// lbrPreagg is the pre-aggregated text of the traces of branch stacks,
// which perf2bolt --pa turns into lbrFdata's fdata.
func lbrPreagg(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	return lbrFiles(o, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		funcs, err := boltFuncs(one, 0)
		if err != nil {
			return profileFile{}, err
		}
		return profileFile{write: func(w io.Writer) error {
			return boltprof.WritePreagg(w, one.primary(), funcs, c.traces.traces)
		}}, nil
	})
}

// refuseUnsymbolizedBolt refuses BOLT output of an unsymbolized profile of
// LBR ranges: it has lost the order of each stack's branches, which BOLT's
// traces are made of.
func refuseUnsymbolizedBolt(o *output) error {
	if o.src.kind != fromUnsymbolized {
		return nil
	}
	return usagef("--unsymbolized-profile holds LBR ranges and branches, not the branch stacks BOLT's traces are made of: convert the recording itself with --format=%s", o.flag)
}

// stackNoLBRFdata is, for each binary with IP samples, the no_lbr fdata
// of perf2bolt --ba: the samples' leaf frames (their IPs) by function.
func stackNoLBRFdata(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	perBinary := basicSamples(in.stacks, len(bins.files))
	var files []profileFile
	for i, samples := range perBinary {
		if samples == nil {
			continue
		}
		funcs, err := boltFuncs(bins, i)
		if errors.Is(err, elf.ErrNoSymbols) && len(bins.files) > 1 {
			// BOLT finds no function in a stripped binary (a system library).
			fmt.Fprintf(o.Stderr, "profgen: warning: %v: no BOLT profile of it\n", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		files = append(files, profileFile{bin: i, write: func(w io.Writer) error {
			_, err := boltprof.WriteNoLBR(w, funcs, samples)
			return err
		}})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: %w: no sampled binary has a symbol table for BOLT", o.src.name(), ErrNoSamples)
	}
	return files, nil
}

// basicSamples are the IP samples of each binary (nil for a binary none
// of whose samples has its leaf in it): the leaf frame of every stack,
// at the binary's address. The events are those of every sample used, as
// perf2bolt lists the events of the whole recording.
func basicSamples(counts *aggregate.StackCounts, nbins int) []*boltprof.BasicSamples {
	out := make([]*boltprof.BasicSamples, nbins)
	for _, st := range counts.Stacks {
		leaf := st.Locs[0]
		bi := counts.Objects[leaf.Obj].Binary
		if bi < 0 {
			continue
		}
		if out[bi] == nil {
			out[bi] = boltprof.NewBasicSamples()
			for e := range counts.Events {
				out[bi].Events[e] = true
			}
		}
		out[bi].AddIP(leaf.Addr, st.Count)
	}
	return out
}

// boltFuncs are binary i's functions as BOLT discovers them.
func boltFuncs(bins *binaries, i int) (boltprof.Funcs, error) {
	funcs, err := boltprof.FuncsOf(bins.files[i])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bins.files[i].Path(), err)
	}
	return funcs, nil
}
