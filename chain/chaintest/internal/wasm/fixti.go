package wasm

// fixTI is compiler-rt's float-to-128-bit-integer conversion as nodeos
// links it (leap libraries/builtins fix{,uns}{s,d,t}fti.c): a binary float,
// given as its bits (lo, hi), truncated toward zero. The C code decides from
// the fields alone, so its edges are these: an exponent of 128 or more
// (NaN and the infinities included) saturates — to the maximum, or signed
// and negative to the minimum; an unsigned conversion of anything with the
// sign bit set (-0.5, -0, a negative NaN) is 0; a signed magnitude in
// [2^127, 2^128) wraps modulo 2^128, as the C shift and multiply do.
func fixTI(lo, hi uint64, expBits, sigBits uint, signed bool) (uint64, uint64) {
	var neg bool
	var field, sigLo, sigHi uint64
	if 1+expBits+sigBits <= 64 {
		neg = lo>>(expBits+sigBits)&1 == 1
		field = lo >> sigBits & (1<<expBits - 1)
		sigLo = lo&(1<<sigBits-1) | 1<<sigBits
	} else { // binary128: the significand spans both words
		neg = hi>>63 == 1
		field = hi >> (sigBits - 64) & (1<<expBits - 1)
		sigLo, sigHi = lo, hi&(1<<(sigBits-64)-1)|1<<(sigBits-64)
	}
	exponent := int(field) - (1<<(expBits-1) - 1)
	switch {
	case exponent < 0, !signed && neg:
		return 0, 0
	case exponent >= 128 && !signed:
		return ^uint64(0), ^uint64(0)
	case exponent >= 128 && neg:
		return 0, 1 << 63
	case exponent >= 128:
		return ^uint64(0), ^uint64(0) >> 1
	}
	var rlo, rhi uint64
	if exponent < int(sigBits) {
		rlo, rhi = shr128(sigLo, sigHi, uint32(int(sigBits)-exponent))
	} else {
		rlo, rhi = shl128(sigLo, sigHi, uint32(exponent-int(sigBits)))
	}
	if neg { // signed: sign × magnitude, modulo 2^128
		rlo, rhi = ^rlo+1, ^rhi
		if rlo == 0 {
			rhi++
		}
	}
	return rlo, rhi
}

// fixTIIntrinsic binds a __fix…ti builtin: the result is written through
// its first argument; the float is its second (an f32 or f64), or its
// second and third (a binary128's two words).
func fixTIIntrinsic(expBits, sigBits uint, signed bool) func(c *call, s []uint64) {
	return func(c *call, s []uint64) {
		lo, hi := s[1], uint64(0)
		switch {
		case sigBits == 23:
			lo = uint64(uint32(s[1]))
		case sigBits > 64:
			hi = s[2]
		}
		rlo, rhi := fixTI(lo, hi, expBits, sigBits, signed)
		c.putU128(argI32(s, 0), rlo, rhi)
	}
}
