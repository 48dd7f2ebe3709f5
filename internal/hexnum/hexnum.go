// Package hexnum parses hexadecimal numbers from bytes without allocating:
// the addresses of perf script text and of kallsyms.
//
// In: bytes. Out: the value, or false.
package hexnum

// Digit is the value of the hex digit c (either case), 0xff for a byte
// that is none.
func Digit(c byte) byte { return digits[c] }

var digits = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c - 'a' + 10)
	}
	for c := 'A'; c <= 'F'; c++ {
		t[c] = byte(c - 'A' + 10)
	}
	return t
}()

// Parse parses b as strconv.ParseUint(string(b), 16, 64) does, without
// its error value: hex digits of either case, leading zeros allowed, no
// prefix, no overflow.
func Parse(b []byte) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		d := digits[c]
		if d == 0xff || v>>60 != 0 {
			return 0, false // not a digit, or the value needs more than 64 bits
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}
