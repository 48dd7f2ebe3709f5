package main

import (
	"errors"
	"fmt"
	"io"
)

// errStop is returned by an instruction callback to end the stream early.
var errStop = errors.New("stop")

// readLackey streams the output of valgrind --tool=lackey --trace-mem=yes
// and calls fn for every instruction line "I  addr,size". Data-access lines
// (" L", " S", " M") and valgrind's own "==pid==" lines are skipped. fn
// returning errStop ends the stream without error.
func readLackey(r io.Reader, fn instructionFunc) error {
	return eachLine(r, "lackey", func(lineNo int, line []byte) error {
		if len(line) <= 3 || line[0] != 'I' || line[1] != ' ' || line[2] != ' ' {
			return nil
		}
		addr, size, ok := parseInstr(line[3:])
		if !ok {
			return fmt.Errorf("lackey line %d: malformed instruction %q", lineNo, line)
		}
		return fn(addr, size)
	})
}

// parseInstr parses "hexaddr,decsize" followed by an optional newline.
func parseInstr(b []byte) (addr uint64, size uint32, ok bool) {
	i := 0
	for ; i < len(b) && b[i] != ','; i++ {
		d, isHex := hexDigit(b[i])
		if !isHex || i >= 16 {
			return 0, 0, false
		}
		addr = addr<<4 | uint64(d)
	}
	if i == 0 || i == len(b) {
		return 0, 0, false
	}
	i++
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		size = size*10 + uint32(b[i]-'0')
		if size > 15 {
			return 0, 0, false
		}
	}
	if i == start || size == 0 {
		return 0, 0, false
	}
	rest := b[i:]
	if len(rest) > 0 && rest[len(rest)-1] == '\n' {
		rest = rest[:len(rest)-1]
	}
	if len(rest) != 0 {
		return 0, 0, false
	}
	return addr, size, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
