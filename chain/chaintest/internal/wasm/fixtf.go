package wasm

import "math/big"

// softfloatToInt is SoftFloat 3's f128_to_i32, f128_to_i64, f128_to_ui32
// and f128_to_ui64 as nodeos calls them for __fixtfsi, __fixtfdi,
// __fixunstfsi and __fixunstfdi (leap compiler_builtins.cpp: rounding mode
// 0, round_near_even, and exact false), in the 8086-SSE specialization
// leap's softfloat build compiles (AntelopeIO/berkeley-softfloat-3). So
// unlike C's conversion it rounds: the exact value to the nearest integer,
// ties to even (1.5 and 2.5 are both 2). NaN, the infinities and every
// result out of range give one value, the minimum for the signed
// conversions and the maximum for the unsigned ones; an unsigned
// conversion of a negative value is 0 when it rounds to 0 (-0.5) and the
// maximum otherwise (-0.6).
func softfloatToInt(lo, hi uint64, bits uint, signed bool) uint64 {
	invalid := ^uint64(0) >> (64 - bits) // the unsigned maximum
	if signed {
		invalid = 1 << (bits - 1) // the signed minimum, as its bits
	}
	if isNaN128(lo, hi) || isInf128(lo, hi) {
		return invalid
	}
	v := unpack128(lo, hi)
	if v.m.Sign() == 0 {
		return 0
	}
	if v.e > 64 { // a normal significand is at least 2^112: out of range
		return invalid
	}
	n := new(big.Int).Set(v.m)
	if v.e >= 0 {
		n.Lsh(n, uint(v.e))
	} else {
		shift := uint(-v.e)
		rem := new(big.Int).Sub(n, new(big.Int).Lsh(new(big.Int).Rsh(n, shift), shift))
		n.Rsh(n, shift)
		half := new(big.Int).Lsh(big.NewInt(1), shift-1)
		if c := rem.Cmp(half); c > 0 || c == 0 && n.Bit(0) == 1 {
			n.Add(n, big.NewInt(1))
		}
	}
	if v.neg {
		n.Neg(n)
	}
	if signed {
		limit := new(big.Int).Lsh(big.NewInt(1), bits-1)
		if n.Cmp(new(big.Int).Neg(limit)) < 0 || n.Cmp(limit) >= 0 {
			return invalid
		}
		return uint64(n.Int64()) & (^uint64(0) >> (64 - bits))
	}
	if n.Sign() < 0 || n.BitLen() > int(bits) {
		return invalid
	}
	return n.Uint64()
}

// fixTFIntrinsic binds __fixtfsi, __fixtfdi, __fixunstfsi or
// __fixunstfdi: a binary128's two words in, an i32 or i64 out.
func fixTFIntrinsic(bits uint, signed bool) func(c *call, s []uint64) {
	return func(c *call, s []uint64) {
		s[0] = softfloatToInt(s[0], s[1], bits, signed)
	}
}
