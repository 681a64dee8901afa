package wasm

import (
	"math/big"
	"math/bits"
)

// The compiler builtins nodeos provides for 128-bit integers, with its
// semantics (fc::uint128 shifts: 128 or more gives 0).

func errDivideByZero() *Exception {
	return newException(3230003, "arithmetic_exception", "Arithmetic Exception", "divide by zero")
}

func shl128(lo, hi uint64, n uint32) (uint64, uint64) {
	switch {
	case n >= 128:
		return 0, 0
	case n >= 64:
		return 0, lo << (n - 64)
	case n == 0:
		return lo, hi
	}
	return lo << n, hi<<n | lo>>(64-n)
}

func shr128(lo, hi uint64, n uint32) (uint64, uint64) {
	switch {
	case n >= 128:
		return 0, 0
	case n >= 64:
		return hi >> (n - 64), 0
	case n == 0:
		return lo, hi
	}
	return lo>>n | hi<<(64-n), hi >> n
}

func sar128(lo, hi uint64, n uint32) (uint64, uint64) {
	fill := uint64(int64(hi) >> 63)
	switch {
	case n >= 128:
		return fill, fill
	case n >= 64:
		return uint64(int64(hi) >> (n - 64)), fill
	case n == 0:
		return lo, hi
	}
	return lo>>n | hi<<(64-n), uint64(int64(hi) >> n)
}

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

func bigOf(lo, hi uint64, signed bool) *big.Int {
	v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	v.Or(v, new(big.Int).SetUint64(lo))
	if signed && hi>>63 == 1 {
		v.Sub(v, two128)
	}
	return v
}

// words128 is v modulo 2^128 as (lo, hi).
func words128(v *big.Int) (uint64, uint64) {
	m := new(big.Int).Mod(v, two128)
	lo := new(big.Int).And(m, new(big.Int).SetUint64(^uint64(0))).Uint64()
	return lo, new(big.Int).Rsh(m, 64).Uint64()
}

func defineBuiltins() {
	shift := func(f func(lo, hi uint64, n uint32) (uint64, uint64)) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			lo, hi := f(s[1], s[2], argI32(s, 3))
			c.putU128(argI32(s, 0), lo, hi)
		}
	}
	def("__ashlti3", "iIIi", "", shift(shl128))
	def("__lshlti3", "iIIi", "", shift(shl128))
	def("__lshrti3", "iIIi", "", shift(shr128))
	def("__ashrti3", "iIIi", "", shift(sar128))
	def("__multi3", "iIIII", "", func(c *call, s []uint64) {
		// The low 128 bits of the product are the same signed or not.
		hi, lo := bits.Mul64(s[1], s[3])
		hi += s[1]*s[4] + s[2]*s[3]
		c.putU128(argI32(s, 0), lo, hi)
	})
	divmod := func(signed, mod bool) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			a, b := bigOf(s[1], s[2], signed), bigOf(s[3], s[4], signed)
			if b.Sign() == 0 {
				raise(errDivideByZero())
			}
			var r *big.Int
			if mod {
				r = new(big.Int).Rem(a, b) // C's %: the sign of the dividend
			} else {
				r = new(big.Int).Quo(a, b) // C's /: toward zero
			}
			lo, hi := words128(r)
			c.putU128(argI32(s, 0), lo, hi)
		}
	}
	def("__divti3", "iIIII", "", divmod(true, false))
	def("__udivti3", "iIIII", "", divmod(false, false))
	def("__modti3", "iIIII", "", divmod(true, true))
	def("__umodti3", "iIIII", "", divmod(false, true))
	def("__floattidf", "II", "F", func(c *call, s []uint64) {
		f, _ := new(big.Float).SetInt(bigOf(s[0], s[1], true)).Float64()
		s[0] = f64bits(f)
	})
	def("__floatuntidf", "II", "F", func(c *call, s []uint64) {
		f, _ := new(big.Float).SetInt(bigOf(s[0], s[1], false)).Float64()
		s[0] = f64bits(f)
	})
	def("__floatsidf", "i", "F", func(c *call, s []uint64) { s[0] = f64bits(float64(int32(argI32(s, 0)))) })
	// compiler-rt's float → int128 conversions, edges included (fixti.go).
	def("__fixsfti", "if", "", fixTIIntrinsic(8, 23, true))
	def("__fixdfti", "iF", "", fixTIIntrinsic(11, 52, true))
	def("__fixunssfti", "if", "", fixTIIntrinsic(8, 23, false))
	def("__fixunsdfti", "iF", "", fixTIIntrinsic(11, 52, false))
}
