package antelope

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Float64 inverts Float128FromFloat64 for every float64 (subnormals, ±0
// and ±Inf included) and rounds what a double cannot hold to nearest, ties
// to even, as f128_to_f64 does.
func TestFloat128Float64(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, math.Inf(1), math.Inf(-1)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		values = append(values, math.Float64frombits(rng.Uint64()))
	}
	for _, v := range values {
		if math.IsNaN(v) {
			if got := Float128FromFloat64(v).Float64(); !math.IsNaN(got) {
				t.Errorf("NaN came back as %v", got)
			}
			continue
		}
		if got := Float128FromFloat64(v).Float64(); math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("%v (%#x) came back as %v (%#x)", v, math.Float64bits(v), got, math.Float64bits(got))
		}
	}
	// 1 + 2^-53 is a tie between 1 and 1+2^-52: to even, 1. One bit more
	// (1 + 2^-53 + 2^-112) is past the tie: up.
	one := Float128FromFloat64(1)
	tie := one
	tie[7] |= 0x08 // 2^-53: fraction bit 59 (bits 0–111 in bytes 0–13; 2^-k is bit 112-k)
	if got := tie.Float64(); got != 1 {
		t.Errorf("1+2^-53 rounds to %v, want 1", got)
	}
	past := tie
	past[0] |= 1 // 2^-112
	if got := past.Float64(); got != math.Nextafter(1, 2) {
		t.Errorf("1+2^-53+2^-112 rounds to %v, want %v", got, math.Nextafter(1, 2))
	}
	// Beyond float64's range: ±Inf; below it: ±0.
	huge := Float128FromFloat64(math.MaxFloat64)
	huge[15], huge[14] = 0x70, 0 // exponent 0x7000, far above float64's
	if got := huge.Float64(); !math.IsInf(got, 1) {
		t.Errorf("a huge float128 is %v", got)
	}
	var tiny Float128
	tiny[0] = 1 // the smallest subnormal binary128
	if got := tiny.Float64(); got != 0 {
		t.Errorf("the smallest float128 is %v", got)
	}
}
