package main

import (
	"bufio"
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
func readLackey(r io.Reader, fn func(addr uint64, size uint32) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// Not an instruction line (those are short): skip the rest.
			if err := skipLine(br); err != nil {
				return err
			}
			continue
		}
		if len(line) > 3 && line[0] == 'I' && line[1] == ' ' && line[2] == ' ' {
			addr, size, ok := parseInstr(line[3:])
			if !ok {
				return fmt.Errorf("lackey line %d: malformed instruction %q", lineNo, line)
			}
			if ferr := fn(addr, size); ferr != nil {
				if ferr == errStop {
					return nil
				}
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lackey line %d: %w", lineNo, err)
		}
	}
}

func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
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
