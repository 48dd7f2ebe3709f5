package perfscript

import "bytes"

// Call chains indented with spaces, not perf's tab ("            400626"
// per frame, as in LLVM's own llvm-profgen test inputs), hold only the
// address. Such a line alone is also an IP-only sample of LBR input
// (`perf script -F ip`), so a run of them is taken for a call chain only
// when a branch stack follows it directly: llvm-profgen reads frames up to
// the line starting with " 0x".

// isBareFrame reports whether line is a space-indented lone address
// with nothing after it: " 262511 " is perf's pid line before a call
// chain (llvm-profgen reads frames with getAsInteger, which refuses the
// space too).
func isBareFrame(line []byte) bool {
	if len(line) == 0 || line[0] != ' ' {
		return false
	}
	return isLoneAddr(line)
}

// isLoneAddr reports whether line is blanks, then an address, then nothing.
func isLoneAddr(line []byte) bool {
	_, ok := parseHex(trimLeft(line))
	return ok
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// bareStackAhead reports whether the lines after the current one are more
// lone addresses (tab- or space-indented) up to a branch stack line. A run
// found to end otherwise is remembered, so that IP-only input is scanned
// once, not once per line.
func (s *Scanner) bareStackAhead() bool {
	if s.lineNo <= s.noStackUntil {
		return false
	}
	for n := 4 << 10; ; n *= 2 {
		rest, whole := s.lookahead(n)
		verdict, lines, known := bareStackEnds(rest, whole)
		if known || whole {
			if !verdict {
				s.noStackUntil = s.lineNo + lines
			}
			return verdict
		}
	}
}

// bareStackEnds scans rest line by line; known is false when it ran out of
// bytes before a line decided (and whole says rest is all there is); lines
// counts the lone addresses seen.
func bareStackEnds(rest []byte, whole bool) (verdict bool, lines int, known bool) {
	for ; ; lines++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 && !whole {
			return false, lines, false
		}
		line := rest
		if i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		}
		line = trimNewline(line)
		t := trimSpace(line)
		if len(line) > 0 && isSpace(line[0]) && isLoneAddr(line) {
			if i < 0 {
				return false, lines + 1, true
			}
			continue
		}
		return len(t) > 0 && isEntry(firstField(t)), lines, true
	}
}

// lookahead returns the unread input after the current line: at least n
// bytes of it (whole is true when that is all the input left).
func (s *Scanner) lookahead(n int) (rest []byte, whole bool) {
	if s.r == nil {
		return s.data, true
	}
	if len(s.long) == 0 { // the line lies in the reader's buffer, which Peek may refill
		s.long = append(s.long, s.line...)
		s.line = s.long
	}
	n = min(n, readBufferSize)
	b, err := s.r.Peek(n)
	return b, err != nil || n == readBufferSize
}
