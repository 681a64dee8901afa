package wasm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// big128 rounds an exact or correctly rounded big.Float to binary128 bits
// (normal range only): the oracle for the arithmetic.
func big128(f *big.Float) (uint64, uint64) {
	if f.Sign() == 0 {
		if f.Signbit() {
			return 0, 1 << 63
		}
		return 0, 0
	}
	mant := new(big.Float)
	exp := f.MantExp(mant) // f = mant × 2^exp, |mant| in [0.5, 1)
	m, _ := new(big.Float).SetMantExp(mant.Abs(mant), 113).Int(nil)
	var sign uint64
	if f.Signbit() {
		sign = 1 << 63
	}
	e := exp - 1 + f128Bias
	m.SetBit(m, 112, 0)
	lo, hi := words128(m)
	return lo, sign | uint64(e)<<48 | hi
}

func toBig(lo, hi uint64) *big.Float { return bigFloat128(lo, hi) }

func randNormal128(r *rand.Rand) (uint64, uint64) {
	exp := uint64(f128Bias - 200 + r.IntN(400))
	return r.Uint64(), uint64(r.IntN(2))<<63 | exp<<48 | r.Uint64()&(1<<48-1)
}

func TestFloat128ArithmeticRoundsExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		alo, ahi := randNormal128(r)
		blo, bhi := randNormal128(r)
		if i%7 == 0 { // close exponents: cancellation
			bhi = bhi&^(f128ExpMask<<48) | ahi&(f128ExpMask<<48)
		}
		a, b := toBig(alo, ahi), toBig(blo, bhi)
		for _, c := range []struct {
			name string
			got  func() (uint64, uint64)
			want *big.Float
		}{
			{"add", func() (uint64, uint64) { return add128(alo, ahi, blo, bhi) }, new(big.Float).SetPrec(113).Add(a, b)},
			{"mul", func() (uint64, uint64) { return mul128(alo, ahi, blo, bhi) }, new(big.Float).SetPrec(113).Mul(a, b)},
			{"div", func() (uint64, uint64) { return div128(alo, ahi, blo, bhi) }, new(big.Float).SetPrec(113).Quo(a, b)},
		} {
			glo, ghi := c.got()
			wlo, whi := big128(c.want)
			if glo != wlo || ghi != whi {
				t.Fatalf("%s(%016x%016x, %016x%016x) = %016x%016x, want %016x%016x", c.name, ahi, alo, bhi, blo, ghi, glo, whi, wlo)
			}
		}
	}
}

func TestFloat128Specials(t *testing.T) {
	inf := uint64(f128ExpMask) << 48
	one := uint64(f128Bias) << 48
	qnan := uint64(0x7FFF800000000001)
	cases := []struct {
		name           string
		got            [2]uint64
		wantLo, wantHi uint64
	}{
		{"inf-inf", pair(add128(0, inf, 0, inf|1<<63)), 0, defaultNaNHi},
		{"0*inf", pair(mul128(0, 0, 0, inf)), 0, defaultNaNHi},
		{"0/0", pair(div128(0, 0, 0, 0)), 0, defaultNaNHi},
		{"1/0", pair(div128(0, one, 0, 0)), 0, inf},
		{"-1/0", pair(div128(0, one|1<<63, 0, 0)), 0, inf | 1<<63},
		{"nan+1", pair(add128(0, qnan, 0, one)), 0, qnan},
		{"1+nan", pair(add128(0, one, 5, 0x7FFF000000000000)), 5, 0x7FFF800000000000},
		{"x-x", pair(add128(7, one, 7, one|1<<63)), 0, 0},
		{"-0+-0", pair(add128(0, 1<<63, 0, 1<<63)), 0, 1 << 63},
		{"overflow", pair(mul128(0, 0x7FFE<<48, 0, 0x7FFE<<48)), 0, inf},
		{"subnormal", pair(div128(0, 1<<48, 0, (f128Bias+1)<<48)), 0, 1 << 47}, // min normal / 2
		{"1.5 from double", pair(fromFloat64(1.5)), 0, one | 1<<47},
		{"min subnormal double", pair(fromFloat64(math.SmallestNonzeroFloat64)), 0, uint64(f128Bias-1074) << 48},
	}
	for _, c := range cases {
		if c.got[0] != c.wantLo || c.got[1] != c.wantHi {
			t.Errorf("%s = %016x%016x, want %016x%016x", c.name, c.got[1], c.got[0], c.wantHi, c.wantLo)
		}
	}
	if toFloat64(0, one|1<<47) != 1.5 || toFloat64(fromFloat64(math.Pi)) != math.Pi || toFloat32(fromFloat32(0.1)) != 0.1 {
		t.Error("round trips through binary128")
	}
	if got := formatFloat128(0, one|1<<47); got != "1.500000000000000000e+00" {
		t.Errorf("printqf 1.5 = %s", got)
	}
	if got := formatScientific(1.5, 15); got != "1.500000000000000e+00" {
		t.Errorf("printdf 1.5 = %s", got)
	}
}

func pair(lo, hi uint64) [2]uint64 { return [2]uint64{lo, hi} }

func TestInt128Builtins(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		alo, ahi, blo, bhi := r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()
		if r.IntN(2) == 0 {
			ahi, bhi = uint64(int64(r.Int32())), uint64(int64(r.Int32()))
		}
		n := uint32(r.IntN(140))
		a := bigOf(alo, ahi, false)
		check := func(name string, lo, hi uint64, want *big.Int) {
			wlo, whi := words128(want)
			if lo != wlo || hi != whi {
				t.Fatalf("%s: got %016x%016x want %016x%016x", name, hi, lo, whi, wlo)
			}
		}
		lo, hi := shl128(alo, ahi, n)
		want := new(big.Int).Lsh(a, uint(n))
		if n >= 128 {
			want.SetInt64(0)
		}
		check("shl", lo, hi, want)
		lo, hi = shr128(alo, ahi, n)
		want = new(big.Int).Rsh(a, uint(n))
		if n >= 128 {
			want.SetInt64(0)
		}
		check("shr", lo, hi, want)
		lo, hi = sar128(alo, ahi, n)
		check("sar", lo, hi, new(big.Int).Rsh(bigOf(alo, ahi, true), uint(min(n, 127))))
		_ = blo
		_ = bhi
	}
}
