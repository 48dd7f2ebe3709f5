package profshow

import (
	"math/big"
	"math/bits"
	"strconv"
)

// Sum is a sum of sample counts in 128 bits, so that the total of a
// profile whose counts reach 2^64-1 (merges saturate there) is the true
// sum: 2^64-1 twice and 1000 make 36893488147419104230, not a wrapped
// 998 (llvm-profdata's uint64_t) nor a saturated 2^64-1.
type Sum struct{ Hi, Lo uint64 }

// SumOf is the sum of a single count.
func SumOf(n uint64) Sum { return Sum{Lo: n} }

// Add adds n.
func (s *Sum) Add(n uint64) {
	var carry uint64
	s.Lo, carry = bits.Add64(s.Lo, n, 0)
	s.Hi += carry
}

// Float64 is s as a float64 (rounded).
func (s Sum) Float64() float64 { return float64(s.Hi)*0x1p64 + float64(s.Lo) }

// Share is s as a percentage of total; 0 when total is.
func (s Sum) Share(total Sum) float64 {
	if total == (Sum{}) {
		return 0
	}
	return s.Float64() * 100 / total.Float64()
}

// String is s in decimal.
func (s Sum) String() string {
	if s.Hi == 0 {
		return strconv.FormatUint(s.Lo, 10)
	}
	hi := new(big.Int).Lsh(new(big.Int).SetUint64(s.Hi), 64)
	return hi.Or(hi, new(big.Int).SetUint64(s.Lo)).String()
}

// MarshalJSON writes s as a JSON number, however large.
func (s Sum) MarshalJSON() ([]byte, error) { return []byte(s.String()), nil }
