package symbolize

// LLVM packs up to three components into a DWARF discriminator (base
// discriminator, duplication factor, copy id), each in a prefix encoding:
// bit 0 set means the component is 0 and takes one bit; otherwise a
// 7-bit field, or a 14-bit one when bit 6 is set.

// BaseDiscriminator returns the base discriminator of an LLVM discriminator,
// as LLVM 19 on decodes it (DILocation::getBaseDiscriminatorFromDiscriminator):
// a value whose low three bits are all set, with any other bit set, is a
// pseudo probe's (isPseudoProbeDiscriminator), whose base is the DWARF
// discriminator packed into bits 16-18 when bit 28 says so, else the probe
// id (bits 3-18). GCC's plain discriminators 15, 23, 31... fall there:
// llvm-profgen reads gcc-12's discriminator 15 as 1.
func BaseDiscriminator(d uint32) uint32 {
	if d&7 == 7 && d&^7 != 0 {
		if d&(1<<28) != 0 {
			return d >> 16 & 7
		}
		return d >> 3 & 0xffff
	}
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
