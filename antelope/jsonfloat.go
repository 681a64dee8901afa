package antelope

import (
	"math"
	"math/bits"
	"strconv"
)

// Floats in JSON, at integer speed where the arithmetic is exact.
//
// Writing: nodeos prints a double with 17 fixed decimals. strconv makes
// that exact decimal with its arbitrary-precision fallback (fixed notation
// has no fast path), and the round trip that decides whether the text
// keeps the value parsed it back. For 0.1 ≤ |v| < 2^64 neither is needed:
// the value is m·2^-k with m < 2^53, its 17 decimals are m·10^17 / 2^k
// rounded half to even, one 128-bit product and a shift; and 17 decimals of
// a value of at least 0.1 carry at least 17 significant digits, which
// always read back to the same double (and float).
//
// Reading: strconv's fast path gives up on the long exact decimals nodeos
// prints ("1000000000000000.12500000000000000") and falls back to
// arbitrary precision. Where the decimal, trailing zeros dropped, is an
// integer of at most 19 digits times 10^-k with k ≤ 27 and divisible by
// 5^k, it is (that integer / 5^k) · 2^-k: one correctly rounded conversion
// of an integer and an exact scaling.

// appendFixed17 appends v with 17 decimals, exactly as
// strconv.AppendFloat(b, v, 'f', 17, 64), for 0.1 ≤ |v| < 2^64; ok is false
// (and b unchanged) outside that range.
func appendFixed17(b []byte, v float64) (_ []byte, ok bool) {
	abs := math.Abs(v)
	if !(abs >= 0.1 && abs < 0x1p64) {
		return b, false
	}
	fb := math.Float64bits(abs)
	exp := int(fb>>52) - 1075 // v = mant · 2^exp
	mant := fb&(1<<52-1) | 1<<52
	var ip, frac uint64 // integer part, and the 17 decimals
	if exp >= 0 {
		ip = mant << exp
	} else {
		k := uint(-exp) // 1 ≤ k ≤ 56, as |v| ≥ 0.1
		ip = mant >> k
		// frac = f·10^17 / 2^k, f the k bits after the point: below 10^17.
		hi, lo := bits.Mul64(mant&(1<<k-1), 1e17)
		q := lo>>k | hi<<(64-k)
		rem, half := lo&(1<<k-1), uint64(1)<<(k-1)
		if rem > half || rem == half && q&1 == 1 { // half to even, as strconv
			q++
			if q == 1e17 {
				q = 0
				ip++
			}
		}
		frac = q
	}
	if math.Signbit(v) {
		b = append(b, '-')
	}
	b = appendUint(b, ip)
	// The 17 decimals: eight, one, eight.
	var digits [18]byte
	digits[0] = '.'
	low := frac % 1e9
	putEightDigits(digits[1:9], uint32(frac/1e9))
	digits[9] = byte('0' + low/1e8)
	putEightDigits(digits[10:18], uint32(low%1e8))
	return append(b, digits[:]...), true
}

// pow5 holds 5^0 … 5^27, the powers below 2^63.
var pow5 = func() (t [28]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 5
	}
	return t
}()

// parseExactFloat reads the decimal text t (JSON number syntax, or the same
// inside a string, with an optional leading '+') when it is exactly
// representable in the way the package comment describes; ok is false for
// anything else, which strconv then reads.
func parseExactFloat(t []byte, bitSize int) (v float64, ok bool) {
	i, neg := 0, false
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		neg = t[i] == '-'
		i++
	}
	// The digits before the point, leading zeros counted among the 19 a
	// uint64 always holds (a longer text is strconv's), eight a step.
	intEnd, m := digitsAt(t, i, len(t))
	if intEnd == i || intEnd-i > 19 {
		return 0, false // no digits before a point, or too many: strconv's
	}
	k := 0 // the decimals kept
	if intEnd < len(t) {
		if t[intEnd] != '.' {
			return 0, false // an exponent or something strconv must judge
		}
		// Drop the fraction's trailing zeros: they change neither the
		// value nor its exactness.
		end := len(t)
		for end > intEnd+1 && t[end-1] == '0' {
			end--
		}
		fracEnd, frac := digitsAt(t, intEnd+1, end)
		k = fracEnd - intEnd - 1
		if fracEnd != end || intEnd-i+k > 19 {
			return 0, false
		}
		m = m*pow10u64[k] + frac // below 10^19: at most 19 digits
	}
	if k >= len(pow5) || m%pow5[k] != 0 {
		return 0, false
	}
	q := m / pow5[k]
	if bitSize == 32 {
		if q >= 1<<24 && q>>bits.TrailingZeros64(q) >= 1<<24 {
			return 0, false // not exact in a float32: strconv rounds it
		}
		v = float64(float32(q))
	} else {
		v = float64(q) // rounded once, to nearest even
	}
	v = math.Ldexp(v, -k) // exact: no overflow or subnormal at these sizes
	if neg {
		v = -v
	}
	return v, true
}

// parseLongFloat reads a decimal too long for strconv to take without
// allocating (a string conversion beyond 32 bytes) when it is exactly the
// 17-decimal text of a value of magnitude at least 0.1, as this package
// prints every such value: the first 19 digits give the value to within an
// ulp, and the candidate whose own text is t is the value (such a text
// always reads back to it). ok is false for anything else.
func parseLongFloat(t []byte, bitSize int) (float64, bool) {
	var short [32]byte
	n, i := 0, 0
	if len(t) > 0 && (t[0] == '-' || t[0] == '+') {
		if t[0] == '-' {
			short[n] = '-'
			n++
		}
		i++
	}
	sig, exp, dot, started := 0, 0, false, false
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '.' && !dot:
			dot = true
			continue
		case c < '0' || c > '9':
			return 0, false
		case !started && c == '0':
			if dot {
				exp--
			}
			continue
		}
		started = true
		if sig < 19 {
			short[n] = c
			n++
			sig++
			if dot {
				exp--
			}
		} else if !dot {
			exp++
		}
	}
	if !started {
		return 0, false
	}
	short[n] = 'e'
	n++
	n = len(strconv.AppendInt(short[:n], int64(exp), 10))
	v0, err := strconv.ParseFloat(string(short[:n]), bitSize)
	if err != nil {
		return 0, false
	}
	for _, c := range [...]float64{v0, nextFloat(v0, 1, bitSize), nextFloat(v0, -1, bitSize)} {
		if math.IsInf(c, 0) || math.Abs(c) < 0.1 {
			continue
		}
		var buf [400]byte // 'f' with 17 decimals of any double fits
		if string(strconv.AppendFloat(buf[:0], c, 'f', 17, 64)) == string(t) {
			return c, true
		}
	}
	return 0, false
}

// nextFloat is the neighbour of v toward the sign of dir, in float64 or
// float32.
func nextFloat(v float64, dir float64, bitSize int) float64 {
	if bitSize == 32 {
		return float64(math.Nextafter32(float32(v), float32(math.Inf(int(dir)))))
	}
	return math.Nextafter(v, math.Inf(int(dir)))
}
