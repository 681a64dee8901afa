package wasm

import (
	"math"
	"math/big"
	"testing"
)

// f128Of is m × 2^e as binary128 (exact for the values below).
func f128Of(neg bool, m int64, e int) (uint64, uint64) {
	return round128(neg, big.NewInt(m), e, false)
}

// The four SoftFloat conversions at their edges: rounding half to even,
// not truncation; the 8086-SSE out-of-range value for NaN, the infinities
// and overflow (signed minimum, unsigned maximum); negatives converted to
// unsigned. Each want is worked out from SoftFloat 3's roundToI32/I64 and
// roundToUI32/UI64 with round_near_even.
func TestSoftfloatToIntEdges(t *testing.T) {
	const i32min, i64min = uint64(1 << 31), uint64(1 << 63)
	const u32max, u64max = uint64(math.MaxUint32), uint64(math.MaxUint64)
	i32 := func(v int32) uint64 { return uint64(uint32(v)) }
	i64 := func(v int64) uint64 { return uint64(v) }
	infHi := uint64(0x7FFF) << 48
	nan := uint64(0x7FFF8)<<44 | 1
	type value struct {
		name   string
		lo, hi uint64
	}
	val := func(name string, neg bool, m int64, e int) value {
		lo, hi := f128Of(neg, m, e)
		return value{name, lo, hi}
	}
	big63 := func(name string, neg bool, m *big.Int, e int) value {
		lo, hi := round128(neg, m, e, false)
		return value{name, lo, hi}
	}
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	minus := func(a *big.Int, b int64) *big.Int { return new(big.Int).Sub(a, big.NewInt(b)) }
	cases := []struct {
		v                    value
		si32, si64, u32, u64 uint64
	}{
		{value{"+0", 0, 0}, 0, 0, 0, 0},
		{value{"-0", 0, 1 << 63}, 0, 0, 0, 0},
		{val("0.5", false, 1, -1), 0, 0, 0, 0},
		{val("1.5", false, 3, -1), 2, 2, 2, 2},
		{val("2.5", false, 5, -1), 2, 2, 2, 2},
		{val("0.75", false, 3, -2), 1, 1, 1, 1},
		{val("-0.5", true, 1, -1), 0, 0, 0, 0},
		{val("-0.75", true, 3, -2), i32(-1), i64(-1), u32max, u64max},
		{val("-1.5", true, 3, -1), i32(-2), i64(-2), u32max, u64max},
		{val("-2.5", true, 5, -1), i32(-2), i64(-2), u32max, u64max},
		{val("smallest subnormal", false, 1, f128MinQ), 0, 0, 0, 0},
		{val("2^31-1", false, 1<<31-1, 0), 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1},
		{val("2^31-0.5", false, 1<<32-1, -1), i32min, 1 << 31, 1 << 31, 1 << 31},
		{val("2^31-1.5", false, 1<<32-3, -1), 1<<31 - 2, 1<<31 - 2, 1<<31 - 2, 1<<31 - 2},
		{val("-2^31-0.5", true, 1<<32+1, -1), i32min, i64(-(1 << 31)), u32max, u64max},
		{val("-2^31-1", true, 1<<31+1, 0), i32min, i64(-(1 << 31) - 1), u32max, u64max},
		{val("2^32-0.5", false, 1<<33-1, -1), i32min, 1 << 32, u32max, 1 << 32},
		{val("2^32-1", false, 1<<32-1, 0), i32min, 1<<32 - 1, u32max, 1<<32 - 1},
		{big63("2^63-0.5", false, minus(new(big.Int).Lsh(big.NewInt(1), 64), 1), -1), i32min, i64min, u32max, 1 << 63},
		{big63("2^63-1.5", false, minus(two64, 3), -1), i32min, 1<<63 - 2, u32max, 1<<63 - 2},
		{big63("-2^63-0.5", true, new(big.Int).Add(two64, big.NewInt(1)), -1), i32min, i64min, u32max, u64max},
		{big63("2^64-1", false, minus(two64, 1), 0), i32min, i64min, u32max, u64max},
		{big63("2^64-0.5", false, minus(new(big.Int).Lsh(two64, 1), 1), -1), i32min, i64min, u32max, u64max},
		{val("2^100", false, 1, 100), i32min, i64min, u32max, u64max},
		{value{"+inf", 0, infHi}, i32min, i64min, u32max, u64max},
		{value{"-inf", 0, infHi | 1<<63}, i32min, i64min, u32max, u64max},
		{value{"NaN", 0, nan}, i32min, i64min, u32max, u64max},
		{value{"-NaN", 0, nan | 1<<63}, i32min, i64min, u32max, u64max},
	}
	for _, c := range cases {
		for _, k := range []struct {
			name   string
			bits   uint
			signed bool
			want   uint64
		}{{"__fixtfsi", 32, true, c.si32}, {"__fixtfdi", 64, true, c.si64}, {"__fixunstfsi", 32, false, c.u32}, {"__fixunstfdi", 64, false, c.u64}} {
			if got := softfloatToInt(c.v.lo, c.v.hi, k.bits, k.signed); got != k.want {
				t.Errorf("%s(%s) = %#x, want %#x", k.name, c.v.name, got, k.want)
			}
		}
	}
}
