package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/profmerge"
)

// mergeFn is stage 2, Merge: the profiles of one key in (serialized, as
// readFn emits them), their merge out, serialized the same way, by the
// merges profgen merge does: address profiles by addrprof.MergeInputs,
// instrumentation profiles by profmerge (to an indexed .profdata). Both
// are associative and commutative and give canonical bytes, so the
// runner may combine in any grouping and order (combiner lifting, retries)
// and the output is the same.
//
// The accumulator is the merge so far and the inputs not merged yet; it is
// merged when it holds mergeBatch inputs or mergeBatchBytes bytes, and
// before it is encoded (accumulatorCoder): what crosses the shuffle is one
// serialized profile, whose size follows the distinct addresses or
// functions, not the samples.
type mergeFn struct{}

// accumulator is the merge of a key's profiles so far: merged (nil before
// the first merge) and the profiles added since.
type accumulator struct {
	merged       []byte
	pending      [][]byte
	pendingBytes int
}

// Batch bounds of the accumulator: merging each input alone would parse
// and write the whole merge once per input.
const (
	mergeBatch      = 256
	mergeBatchBytes = 64 << 20
)

// CreateAccumulator returns an empty accumulator.
func (mergeFn) CreateAccumulator() accumulator { return accumulator{} }

// AddInput adds one serialized profile.
func (mergeFn) AddInput(a accumulator, in []byte) (accumulator, error) {
	a.pending = append(a.pending, in)
	a.pendingBytes += len(in)
	return a.mergeIfFull()
}

// MergeAccumulators adds b to a.
func (mergeFn) MergeAccumulators(a, b accumulator) (accumulator, error) {
	for _, p := range append(b.pending, b.merged) {
		if p != nil {
			a.pending = append(a.pending, p)
			a.pendingBytes += len(p)
		}
	}
	return a.mergeIfFull()
}

// ExtractOutput is the merge of everything added.
func (mergeFn) ExtractOutput(a accumulator) ([]byte, error) {
	a, err := a.merge()
	return a.merged, err
}

func (a accumulator) mergeIfFull() (accumulator, error) {
	if len(a.pending) < mergeBatch && a.pendingBytes < mergeBatchBytes {
		return a, nil
	}
	return a.merge()
}

// needsMerge reports whether a holds profiles not merged yet.
func (a accumulator) needsMerge() bool { return len(a.pending) > 0 }

// merge merges the pending profiles into merged. A single
// instrumentation profile is merged alone too: a raw becomes indexed.
func (a accumulator) merge() (accumulator, error) {
	if !a.needsMerge() {
		return a, nil
	}
	ins := a.pending
	if a.merged != nil {
		ins = append([][]byte{a.merged}, ins...)
	}
	merged, err := mergeProfiles(ins)
	return accumulator{merged: merged}, err
}

// mergeProfiles merges serialized profiles of one kind.
func mergeProfiles(ins [][]byte) ([]byte, error) {
	head := ins[0][:min(len(ins[0]), profformat.HeadSize)]
	if profformat.Sniff(head).Kind() == profformat.KindInstr {
		return mergeInstr(ins)
	}
	named := make([]addrprof.Input, len(ins))
	for i, in := range ins {
		named[i] = addrprof.BytesInput(fmt.Sprintf("<merge input %d>", i), in)
	}
	var out bytes.Buffer
	err := addrprof.MergeInputs(&out, named)
	return out.Bytes(), err
}

// mergeInstr merges raw and indexed profiles as profgen merge does, through
// files: profmerge reads and writes paths.
func mergeInstr(ins [][]byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "profgen-fleet-merge")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var args []string
	for i, in := range ins {
		p := filepath.Join(dir, fmt.Sprintf("%06d.prof", i))
		if err := os.WriteFile(p, in, 0o644); err != nil {
			return nil, err
		}
		args = append(args, p)
	}
	out := filepath.Join(dir, "merged.profdata")
	opts := &profmerge.Options{Inputs: profmerge.Inputs{Args: args}, Output: out, Threads: 1}
	if err := profmerge.Run(io.Discard, opts); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

// The accumulator's coder: the merge of all it holds.
func encodeAccumulator(a accumulator) ([]byte, error) {
	a, err := a.merge()
	return a.merged, err
}

func decodeAccumulator(data []byte) (accumulator, error) {
	if len(data) == 0 {
		return accumulator{}, nil
	}
	return accumulator{merged: data}, nil
}

var accumulatorType = reflect.TypeOf(accumulator{})
