package profformat

import (
	"errors"
	"fmt"
	"os"
)

// ErrEmpty is llvm-profdata's word for an empty instrumentation input.
var ErrEmpty = errors.New("empty raw profile file")

// ErrUnrecognizedSample is llvm-profdata's word for an input that is no
// sample profile, an empty one included.
var ErrUnrecognizedSample = errors.New("Unrecognized sample profile encoding format")

// CheckNotEmpty fails on an empty file as llvm-profdata does: in its words
// for the kind of profile expected (KindSample, else instrumentation).
func CheckNotEmpty(path string, want Kind) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > 0 || !fi.Mode().IsRegular() {
		return nil // the reader says what is wrong, or reads a stream
	}
	if want == KindSample {
		return fmt.Errorf("%s: %w", path, ErrUnrecognizedSample)
	}
	return fmt.Errorf("%s: %w", path, ErrEmpty)
}
