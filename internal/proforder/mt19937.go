package proforder

// mt19937 is the 32-bit Mersenne Twister of C++'s std::mt19937, which
// LLVM's balanced partitioning seeds with each bucket's number: the same
// seed must give the same moves as llvm-profdata's.
type mt19937 struct {
	state [624]uint32
	index int
}

func newMT19937(seed uint32) *mt19937 {
	m := &mt19937{index: 624}
	m.state[0] = seed
	for i := 1; i < 624; i++ {
		prev := m.state[i-1]
		m.state[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	return m
}

// next returns the next 32-bit output.
func (m *mt19937) next() uint32 {
	if m.index >= 624 {
		m.twist()
	}
	y := m.state[m.index]
	m.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	return y ^ (y >> 18)
}

func (m *mt19937) twist() {
	for i := 0; i < 624; i++ {
		y := m.state[i]&0x80000000 | m.state[(i+1)%624]&0x7fffffff
		v := m.state[(i+397)%624] ^ y>>1
		if y&1 != 0 {
			v ^= 0x9908b0df
		}
		m.state[i] = v
	}
	m.index = 0
}

// unitFloat is libstdc++'s std::uniform_real_distribution<float>(0, 1):
// one output scaled by 2^-32 in float arithmetic, kept below 1.
func (m *mt19937) unitFloat() float32 {
	r := float32(m.next()) / float32(1<<32)
	if r >= 1 {
		r = 0.99999994 // nextafter(1.0f, 0)
	}
	return r
}
