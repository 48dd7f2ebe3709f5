// Package quote quotes bad input in error messages, bounded: a damaged line
// or name may be megabytes long, and a message stays one short line.
//
// In: the offending bytes. Out: at most MaxBytes of them, quoted, with the
// whole length when cut.
package quote

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxBytes is how much of bad input a message quotes.
const MaxBytes = 80

// String quotes s, cut to MaxBytes at a rune boundary.
func String(s string) string {
	if len(s) <= MaxBytes {
		return strconv.Quote(s)
	}
	n := MaxBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:n]), len(s))
}

// Bytes quotes b as String does, without copying more than it quotes.
func Bytes(b []byte) string {
	if len(b) <= MaxBytes {
		return strconv.Quote(string(b))
	}
	n := MaxBytes
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(string(b[:n])), len(b))
}
