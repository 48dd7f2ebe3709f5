package sampleprof

import (
	"errors"
	"fmt"

	"github.com/profgen/profgen/internal/quote"
)

// FormatError is a malformed profile: where the reader stopped and why.
// Text positions are lines, binary positions byte offsets.
type FormatError struct {
	File   string // empty when reading an unnamed stream
	Line   int    // 1-based line of a text profile; 0 in a binary one
	Offset int64  // byte offset in a binary profile
	Err    error
}

func (e *FormatError) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", file, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: offset %d: %v", file, e.Offset, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// ErrUnsupported marks valid LLVM profiles using features profgen does not
// model (context-sensitive or pseudo-probe profiles).
var ErrUnsupported = errors.New("unsupported sample profile feature")

// withFile names the file in a FormatError.
func withFile(err error, file string) error {
	var fe *FormatError
	if errors.As(err, &fe) && fe.File == "" {
		fe.File = file
	}
	return err
}

// excerpt quotes s for an error message, cut to quote.MaxBytes: a
// damaged line may be megabytes long.
func excerpt(s string) string { return quote.String(s) }
