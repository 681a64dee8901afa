package wasm

import (
	"math"
	"math/big"
)

// IEEE 754 binary128 ("long double" in CDT contracts) as nodeos computes it
// with Berkeley SoftFloat (x86 specialization): every result is the exact
// value rounded to nearest-even, with SoftFloat's NaN rules (an operation
// on NaNs returns the first NaN operand made quiet; an invalid operation
// returns the default NaN 0xFFFF8000…). Values are (lo, hi) words.

const (
	f128ExpMask  = 0x7FFF
	f128Bias     = 16383
	f128FracBits = 112
	f128MinQ     = 1 - f128Bias - f128FracBits // the quantum of subnormals
	defaultNaNHi = 0xFFFF800000000000
	quietBitHi   = 0x0000800000000000
)

func isNaN128(lo, hi uint64) bool {
	return hi>>48&f128ExpMask == f128ExpMask && (hi&(1<<48-1) != 0 || lo != 0)
}

func isSigNaN128(lo, hi uint64) bool { return isNaN128(lo, hi) && hi&quietBitHi == 0 }

func isInf128(lo, hi uint64) bool {
	return hi>>48&f128ExpMask == f128ExpMask && hi&(1<<48-1) == 0 && lo == 0
}

func isZero128(lo, hi uint64) bool { return hi<<1 == 0 && lo == 0 }

// f128 is an unpacked finite value: (-1)^neg × m × 2^e.
type f128 struct {
	neg bool
	m   *big.Int
	e   int
}

func unpack128(lo, hi uint64) f128 {
	exp := int(hi >> 48 & f128ExpMask)
	m := new(big.Int).Lsh(new(big.Int).SetUint64(hi&(1<<48-1)), 64)
	m.Or(m, new(big.Int).SetUint64(lo))
	e := f128MinQ
	if exp != 0 {
		m.SetBit(m, f128FracBits, 1)
		e = exp - f128Bias - f128FracBits
	}
	return f128{neg: hi>>63 == 1, m: m, e: e}
}

// round128 rounds (-1)^neg × m × 2^e (and a nonzero tail below it when
// sticky) to binary128, to nearest-even.
func round128(neg bool, m *big.Int, e int, sticky bool) (lo, hi uint64) {
	var sign uint64
	if neg {
		sign = 1 << 63
	}
	if m.Sign() == 0 {
		return 0, sign
	}
	top := m.BitLen() - 1 + e // value in [2^top, 2^(top+1))
	q := top - f128FracBits
	if q < f128MinQ {
		q = f128MinQ
	}
	shift := q - e
	r := new(big.Int)
	if shift > 0 {
		r.Rsh(m, uint(shift))
		// The bits shifted out decide: above half, half (ties to even),
		// below half.
		rem := new(big.Int).Sub(m, new(big.Int).Lsh(r, uint(shift)))
		half := new(big.Int).Lsh(big.NewInt(1), uint(shift-1))
		c := rem.Cmp(half)
		if c > 0 || c == 0 && (sticky || r.Bit(0) == 1) {
			r.Add(r, big.NewInt(1))
		}
	} else {
		r.Lsh(m, uint(-shift))
	}
	if r.BitLen() > f128FracBits+1 { // rounding carried into a new bit
		r.Rsh(r, 1)
		q++
	}
	exp := 0
	if r.BitLen() == f128FracBits+1 {
		exp = q + f128FracBits + f128Bias
		r.SetBit(r, f128FracBits, 0)
	}
	if exp >= f128ExpMask {
		return 0, sign | f128ExpMask<<48 // overflow: infinity
	}
	lo, hi = words128(r)
	return lo, sign | uint64(exp)<<48 | hi
}

// propagateNaN128 is SoftFloat's x86 rule: a signalling a, else a NaN a,
// else b; made quiet.
func propagateNaN128(alo, ahi, blo, bhi uint64) (uint64, uint64) {
	if isSigNaN128(alo, ahi) || isNaN128(alo, ahi) {
		return alo, ahi | quietBitHi
	}
	return blo, bhi | quietBitHi
}

func add128(alo, ahi, blo, bhi uint64) (uint64, uint64) {
	if isNaN128(alo, ahi) || isNaN128(blo, bhi) {
		return propagateNaN128(alo, ahi, blo, bhi)
	}
	aInf, bInf := isInf128(alo, ahi), isInf128(blo, bhi)
	switch {
	case aInf && bInf && (ahi^bhi)>>63 == 1:
		return 0, defaultNaNHi
	case aInf:
		return alo, ahi
	case bInf:
		return blo, bhi
	}
	if isZero128(alo, ahi) && isZero128(blo, bhi) {
		return 0, ahi & bhi & (1 << 63) // -0 only when both are -0
	}
	a, b := unpack128(alo, ahi), unpack128(blo, bhi)
	e := min(a.e, b.e)
	ma := new(big.Int).Lsh(a.m, uint(a.e-e))
	mb := new(big.Int).Lsh(b.m, uint(b.e-e))
	if a.neg {
		ma.Neg(ma)
	}
	if b.neg {
		mb.Neg(mb)
	}
	sum := ma.Add(ma, mb)
	if sum.Sign() == 0 {
		return 0, 0 // an exact zero sum is +0 when rounding to nearest
	}
	neg := sum.Sign() < 0
	return round128(neg, sum.Abs(sum), e, false)
}

func mul128(alo, ahi, blo, bhi uint64) (uint64, uint64) {
	if isNaN128(alo, ahi) || isNaN128(blo, bhi) {
		return propagateNaN128(alo, ahi, blo, bhi)
	}
	sign := (ahi ^ bhi) & (1 << 63)
	aInf, bInf := isInf128(alo, ahi), isInf128(blo, bhi)
	if aInf || bInf {
		if isZero128(alo, ahi) || isZero128(blo, bhi) {
			return 0, defaultNaNHi
		}
		return 0, sign | f128ExpMask<<48
	}
	a, b := unpack128(alo, ahi), unpack128(blo, bhi)
	return round128(sign != 0, new(big.Int).Mul(a.m, b.m), a.e+b.e, false)
}

func div128(alo, ahi, blo, bhi uint64) (uint64, uint64) {
	if isNaN128(alo, ahi) || isNaN128(blo, bhi) {
		return propagateNaN128(alo, ahi, blo, bhi)
	}
	sign := (ahi ^ bhi) & (1 << 63)
	aInf, bInf := isInf128(alo, ahi), isInf128(blo, bhi)
	aZero, bZero := isZero128(alo, ahi), isZero128(blo, bhi)
	switch {
	case aInf && bInf, aZero && bZero:
		return 0, defaultNaNHi
	case aInf, bZero:
		return 0, sign | f128ExpMask<<48
	case bInf, aZero:
		return 0, sign
	}
	a, b := unpack128(alo, ahi), unpack128(blo, bhi)
	// Enough quotient bits for the significand, a round bit and more; the
	// remainder is the sticky bit.
	k := max(0, f128FracBits+4+b.m.BitLen()-a.m.BitLen())
	num := new(big.Int).Lsh(a.m, uint(k))
	q, r := new(big.Int).QuoRem(num, b.m, new(big.Int))
	sticky := r.Sign() != 0
	if sticky {
		// Append a 1 below the quotient so the tail counts as above zero
		// without moving an exact half.
		q.Lsh(q, 1)
		q.SetBit(q, 0, 1)
		k++
	}
	return round128(sign != 0, q, a.e-b.e-k, false)
}

// cmp128 orders two non-NaN values: -1, 0, 1 (-0 equals +0).
func cmp128(alo, ahi, blo, bhi uint64) int {
	if isZero128(alo, ahi) && isZero128(blo, bhi) {
		return 0
	}
	aNeg, bNeg := ahi>>63 == 1, bhi>>63 == 1
	if aNeg != bNeg {
		if aNeg {
			return -1
		}
		return 1
	}
	mag := 0
	switch {
	case ahi&^(1<<63) != bhi&^(1<<63):
		mag = cmpU(ahi&^(1<<63), bhi&^(1<<63))
	default:
		mag = cmpU(alo, blo)
	}
	if aNeg {
		return -mag
	}
	return mag
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// fromFloat64 is SoftFloat's f64_to_f128 (exact).
func fromFloat64(v float64) (uint64, uint64) {
	b := math.Float64bits(v)
	sign := b & (1 << 63)
	switch {
	case math.IsNaN(v):
		frac := b & (1<<52 - 1)
		return frac << 60, sign | defaultNaNHi&^(1<<63) | frac>>4
	case math.IsInf(v, 0):
		return 0, sign | f128ExpMask<<48
	case v == 0:
		return 0, sign
	}
	frac, exp := math.Frexp(math.Abs(v)) // v = frac × 2^exp, frac in [0.5, 1)
	m := new(big.Int).SetUint64(uint64(frac * (1 << 53)))
	return round128(sign != 0, m, exp-53, false)
}

// fromFloat32 is SoftFloat's f32_to_f128 (exact).
func fromFloat32(v float32) (uint64, uint64) {
	b := math.Float32bits(v)
	if v != v {
		frac := uint64(b & (1<<23 - 1))
		return 0, uint64(b>>31)<<63 | defaultNaNHi&^(1<<63) | frac<<25
	}
	return fromFloat64(float64(v))
}

func fromInt(v *big.Int) (uint64, uint64) {
	neg := v.Sign() < 0
	return round128(neg, new(big.Int).Abs(v), 0, false)
}

// bigFloat128 is the exact value of a finite binary128.
func bigFloat128(lo, hi uint64) *big.Float {
	u := unpack128(lo, hi)
	f := new(big.Float).SetInt(u.m)
	f.SetMantExp(f, u.e)
	if u.neg {
		f.Neg(f)
	}
	return f
}

// toFloat64 is SoftFloat's f128_to_f64: nearest-even, NaN payload's top
// bits kept.
func toFloat64(lo, hi uint64) float64 {
	sign := hi & (1 << 63)
	switch {
	case isNaN128(lo, hi):
		return math.Float64frombits(sign | 0x7FF8000000000000 | (hi<<16|lo>>48)>>12)
	case isInf128(lo, hi):
		return math.Float64frombits(sign | 0x7FF0000000000000)
	case isZero128(lo, hi):
		return math.Float64frombits(sign)
	}
	f, _ := bigFloat128(lo, hi).Float64()
	if f == 0 {
		return math.Float64frombits(sign)
	}
	return f
}

// toFloat32 is SoftFloat's f128_to_f32.
func toFloat32(lo, hi uint64) float32 {
	sign := uint32(hi >> 63 << 31)
	switch {
	case isNaN128(lo, hi):
		return math.Float32frombits(sign | 0x7FC00000 | uint32((hi<<16|lo>>48)>>41))
	case isInf128(lo, hi):
		return math.Float32frombits(sign | 0x7F800000)
	case isZero128(lo, hi):
		return math.Float32frombits(sign)
	}
	f, _ := bigFloat128(lo, hi).Float32()
	if f == 0 {
		return math.Float32frombits(sign)
	}
	return f
}

// formatFloat128 prints as nodeos's printqf on x86: rounded to the 80-bit
// extended format, then "%.18Le".
func formatFloat128(lo, hi uint64) string {
	neg := hi>>63 == 1
	switch {
	case isNaN128(lo, hi):
		if neg {
			return "-nan"
		}
		return "nan"
	case isInf128(lo, hi):
		if neg {
			return "-inf"
		}
		return "inf"
	case isZero128(lo, hi):
		if neg {
			return "-0.000000000000000000e+00"
		}
		return "0.000000000000000000e+00"
	}
	f := new(big.Float).SetPrec(64).SetMode(big.ToNearestEven).Set(bigFloat128(lo, hi))
	return f.Text('e', 18)
}

func f64bits(v float64) uint64 { return math.Float64bits(v) }

func defineFloat128() {
	arith := func(op func(alo, ahi, blo, bhi uint64) (uint64, uint64)) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			lo, hi := op(s[1], s[2], s[3], s[4])
			c.putU128(argI32(s, 0), lo, hi)
		}
	}
	def("__addtf3", "iIIII", "", arith(add128))
	def("__subtf3", "iIIII", "", arith(func(alo, ahi, blo, bhi uint64) (uint64, uint64) {
		if isNaN128(blo, bhi) { // SoftFloat's f128_sub propagates b unchanged
			return add128(alo, ahi, blo, bhi)
		}
		return add128(alo, ahi, blo, bhi^1<<63)
	}))
	def("__multf3", "iIIII", "", arith(mul128))
	def("__divtf3", "iIIII", "", arith(div128))
	def("__negtf2", "iII", "", func(c *call, s []uint64) { c.putU128(argI32(s, 0), s[1], s[2]^1<<63) })
	def("__extendsftf2", "if", "", func(c *call, s []uint64) {
		lo, hi := fromFloat32(argF32(s, 1))
		c.putU128(argI32(s, 0), lo, hi)
	})
	def("__extenddftf2", "iF", "", func(c *call, s []uint64) {
		lo, hi := fromFloat64(argF64(s, 1))
		c.putU128(argI32(s, 0), lo, hi)
	})
	def("__trunctfdf2", "II", "F", func(c *call, s []uint64) { s[0] = math.Float64bits(toFloat64(s[0], s[1])) })
	def("__trunctfsf2", "II", "f", func(c *call, s []uint64) { s[0] = uint64(math.Float32bits(toFloat32(s[0], s[1]))) })
	fromInteger := func(signed bool, width int) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			v := s[1] & (1<<width - 1)
			if width == 64 {
				v = s[1]
			}
			var n *big.Int
			switch {
			case signed && width == 32:
				n = big.NewInt(int64(int32(v)))
			case signed:
				n = big.NewInt(int64(v))
			default:
				n = new(big.Int).SetUint64(v)
			}
			lo, hi := fromInt(n)
			c.putU128(argI32(s, 0), lo, hi)
		}
	}
	def("__floatsitf", "ii", "", fromInteger(true, 32))
	def("__floatditf", "iI", "", fromInteger(true, 64))
	def("__floatunsitf", "ii", "", fromInteger(false, 32))
	def("__floatunditf", "iI", "", fromInteger(false, 64))
	def("__fixtfsi", "II", "i", fixTFIntrinsic(32, true))
	def("__fixtfdi", "II", "I", fixTFIntrinsic(64, true))
	def("__fixtfti", "iII", "", fixTIIntrinsic(15, 112, true))
	def("__fixunstfsi", "II", "i", fixTFIntrinsic(32, false))
	def("__fixunstfdi", "II", "I", fixTFIntrinsic(64, false))
	def("__fixunstfti", "iII", "", fixTIIntrinsic(15, 112, false))
	cmp := func(ifNaN int32) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			if isNaN128(s[0], s[1]) || isNaN128(s[2], s[3]) {
				retI32(s, ifNaN)
				return
			}
			retI32(s, int32(cmp128(s[0], s[1], s[2], s[3])))
		}
	}
	def("__eqtf2", "IIII", "i", cmp(1))
	def("__netf2", "IIII", "i", cmp(1))
	def("__getf2", "IIII", "i", cmp(-1))
	def("__gttf2", "IIII", "i", cmp(0))
	def("__letf2", "IIII", "i", cmp(1))
	def("__lttf2", "IIII", "i", cmp(0))
	def("__cmptf2", "IIII", "i", cmp(1))
	def("__unordtf2", "IIII", "i", func(c *call, s []uint64) {
		retBool(s, isNaN128(s[0], s[1]) || isNaN128(s[2], s[3]))
	})
}
