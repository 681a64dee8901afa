package wasm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// wantFixTI is the conversion's meaning, from the value: truncated toward
// zero, taken modulo 2^128 (signed) or 0 for a negative sign (unsigned),
// saturated for NaN, the infinities and magnitudes of 2^128 or more.
func wantFixTI(v *big.Float, neg, special, signed bool) (uint64, uint64) {
	huge := special || new(big.Float).Abs(v).Cmp(new(big.Float).SetInt(two128)) >= 0
	switch {
	case !signed && neg:
		return 0, 0
	case huge && !signed:
		return math.MaxUint64, math.MaxUint64
	case huge && neg:
		return 0, 1 << 63
	case huge:
		return math.MaxUint64, math.MaxUint64 >> 1
	}
	t, _ := v.Int(nil) // truncates toward zero
	return words128(t)
}

func TestFixTIMatchesTruncation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(name string, glo, ghi, wlo, whi uint64, bits any) {
		t.Helper()
		if glo != wlo || ghi != whi {
			t.Fatalf("%s(%x) = %016x%016x, want %016x%016x", name, bits, ghi, glo, whi, wlo)
		}
	}
	edges32 := []uint32{0, 1 << 31, 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
		0x7fc00000, 0xffc00000, 0x00000001, 0x7effffff, 0xfeffffff, 0x7f000000, 0xff000000, 0x7e800000, 0xfe800000}
	for i := range 20000 {
		var b32 uint32
		if i < len(edges32) {
			b32 = edges32[i]
		} else {
			// Exponents around the interesting range (0 to 2^129) most of the time.
			b32 = r.Uint32()
			if i%4 != 0 {
				b32 = b32&0x807fffff | uint32(127+r.IntN(140)-5)<<23
			}
		}
		f := math.Float32frombits(b32)
		special := math.IsNaN(float64(f)) || math.IsInf(float64(f), 0)
		v := new(big.Float)
		if !special {
			v.SetFloat64(float64(f))
		}
		neg := b32>>31 == 1
		for _, signed := range []bool{true, false} {
			glo, ghi := fixTI(uint64(b32), 0, 8, 23, signed)
			wlo, whi := wantFixTI(v, neg, special, signed)
			check(map[bool]string{true: "__fixsfti", false: "__fixunssfti"}[signed], glo, ghi, wlo, whi, b32)
		}
	}
	for i := range 20000 {
		b64 := r.Uint64()
		if i%4 != 0 {
			b64 = b64&0x800fffffffffffff | uint64(1023+r.IntN(140)-5)<<52
		}
		if i < 4 {
			b64 = []uint64{0x7ff0000000000000, 0xfff8000000000000, 0x47e0000000000000, 0xc7e0000000000000}[i] // ±2^127
		}
		f := math.Float64frombits(b64)
		special := math.IsNaN(f) || math.IsInf(f, 0)
		v := new(big.Float)
		if !special {
			v.SetFloat64(f)
		}
		for _, signed := range []bool{true, false} {
			glo, ghi := fixTI(b64, 0, 11, 52, signed)
			wlo, whi := wantFixTI(v, b64>>63 == 1, special, signed)
			check(map[bool]string{true: "__fixdfti", false: "__fixunsdfti"}[signed], glo, ghi, wlo, whi, b64)
		}
	}
	for i := range 20000 {
		lo, hi := r.Uint64(), r.Uint64()
		if i%4 != 0 {
			hi = hi&^(f128ExpMask<<48) | uint64(f128Bias+r.IntN(140)-5)<<48
		}
		special := isNaN128(lo, hi) || isInf128(lo, hi)
		v := new(big.Float)
		if !special {
			v = bigFloat128(lo, hi)
		}
		for _, signed := range []bool{true, false} {
			glo, ghi := fixTI(lo, hi, 15, 112, signed)
			wlo, whi := wantFixTI(v, hi>>63 == 1, special, signed)
			check(map[bool]string{true: "__fixtfti", false: "__fixunstfti"}[signed], glo, ghi, wlo, whi, [2]uint64{hi, lo})
		}
	}
}

// The C code's own cases, spelled out: 1.5 → 1, -1.5 → -1, 2^127 signed
// wraps to the minimum, -2^127 is the minimum, NaN saturates by its sign.
func TestFixTIEdges(t *testing.T) {
	for _, c := range []struct {
		name           string
		bits           uint64
		signed         bool
		wantLo, wantHi uint64
	}{
		{"1.5", math.Float64bits(1.5), true, 1, 0},
		{"-1.5", math.Float64bits(-1.5), true, math.MaxUint64, math.MaxUint64},
		{"-1.5 unsigned", math.Float64bits(-1.5), false, 0, 0},
		{"2^127", math.Float64bits(0x1p127), true, 0, 1 << 63},
		{"2^127 unsigned", math.Float64bits(0x1p127), false, 0, 1 << 63},
		{"-2^127", math.Float64bits(-0x1p127), true, 0, 1 << 63},
		{"2^128", math.Float64bits(0x1p128), true, math.MaxUint64, math.MaxUint64 >> 1},
		{"NaN", 0x7ff8000000000000, true, math.MaxUint64, math.MaxUint64 >> 1},
		{"-NaN", 0xfff8000000000000, true, 0, 1 << 63},
		{"+Inf unsigned", 0x7ff0000000000000, false, math.MaxUint64, math.MaxUint64},
		{"-0 unsigned", 1 << 63, false, 0, 0},
		{"0.99", math.Float64bits(0.99), true, 0, 0},
	} {
		lo, hi := fixTI(c.bits, 0, 11, 52, c.signed)
		if lo != c.wantLo || hi != c.wantHi {
			t.Errorf("%s: got %016x%016x, want %016x%016x", c.name, hi, lo, c.wantHi, c.wantLo)
		}
	}
}

// Through a contract: __fixsfti(-1.5f) and __fixunsdfti(2^64) write their
// 128-bit results through the pointer, checked by the contract itself.
func TestFixTIThroughAContract(t *testing.T) {
	f32c := func(v float32) []byte {
		b := math.Float32bits(v)
		return []byte{0x43, byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24)}
	}
	f64c := func(v float64) []byte {
		b := math.Float64bits(v)
		out := []byte{0x44}
		for i := range 8 {
			out = append(out, byte(b>>(8*i)))
		}
		return out
	}
	i64load := func(addr int32) []byte { return append(i32c(addr), 0x29, 0x03, 0x00) }
	assertEq := func(addr int32, want int64) []byte { // eosio_assert(load(addr) == want, "bad")
		b := append(i64load(addr), i64c(want)...)
		b = append(b, 0x51) // i64.eq
		return append(b, append(i32c(1024), callf(0)...)...)
	}
	m := &testModule{imports: []string{"eosio_assert", "__fixsfti", "__fixunsdfti"}, data: []byte("bad\x00"),
		funcs: []testFunc{applyFunc(
			i32c(2048), f32c(-1.5), callf(1),
			i32c(2064), f64c(0x1p64), callf(2),
			assertEq(2048, -1), assertEq(2056, -1),
			assertEq(2064, 0), assertEq(2072, 1),
		)}}
	if err := run(t, newEngine(t), m, &fakeHost{}, time.Second); err != nil {
		t.Fatal(err)
	}
	m.funcs[0] = applyFunc(i32c(2048), f32c(-2.5), callf(1), assertEq(2048, -1))
	wantException(t, run(t, newEngine(t), m, &fakeHost{}, time.Second), "eosio_assert_message_exception", "assertion failure with message: bad")
}
