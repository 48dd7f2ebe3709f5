package symbolize

// LLVM packs up to three components into a DWARF discriminator (base
// discriminator, duplication factor, copy id), each in a prefix encoding:
// bit 0 set means the component is 0 and takes one bit; otherwise a
// 7-bit field, or a 14-bit one when bit 6 is set.

// BaseDiscriminator returns the base discriminator of an LLVM discriminator.
func BaseDiscriminator(d uint32) uint32 {
	return decodeComponent(d)
}

// DuplicationFactor returns how many copies of the code (unrolling,
// vectorization) the discriminator stands for; at least 1.
func DuplicationFactor(d uint32) uint32 {
	if f := decodeComponent(nextComponent(d)); f != 0 {
		return f
	}
	return 1
}

func decodeComponent(u uint32) uint32 {
	if u&1 != 0 {
		return 0
	}
	u >>= 1
	if u&0x20 != 0 {
		return (u>>1)&0xfe0 | u&0x1f
	}
	return u & 0x1f
}

func nextComponent(d uint32) uint32 {
	if d&1 != 0 {
		return d >> 1
	}
	if d&0x40 != 0 {
		return d >> 14
	}
	return d >> 7
}
