package antelope

import (
	"math"
	"testing"
)

// Compare orders keys as nodeos's indexes do: floats by value (-0 equals
// 0, negatives below positives), everything else by its big-endian bytes.
func TestTableKeyCompare(t *testing.T) {
	f128 := func(v float64) TableKey { return KeyFloat128(Float128FromFloat64(v)) }
	for _, c := range []struct {
		a, b TableKey
		want int
	}{
		{KeyUint64(1), KeyUint64(2), -1},
		{KeyUint64(math.MaxUint64), KeyUint64(0), 1},
		{KeyUint128(Uint128{Hi: 1}), KeyUint128(Uint128{Lo: math.MaxUint64}), 1},
		{KeyFloat64(-1), KeyFloat64(0.5), -1},
		{KeyFloat64(math.Copysign(0, -1)), KeyFloat64(0), 0},
		{f128(-2), f128(-1), -1},
		{f128(-1), f128(1), -1},
		{f128(3), f128(2.5), 1},
		{f128(math.Copysign(0, -1)), f128(0), 0},
		{KeySHA256(Checksum256{0: 1}), KeySHA256(Checksum256{31: 1}), 1},
		{KeyUint64(5), KeyUint64(5), 0},
	} {
		if got := c.a.Compare(c.b); got != c.want {
			t.Errorf("%s vs %s: %d, want %d", c.a, c.b, got, c.want)
		}
		if got := c.b.Compare(c.a); got != -c.want {
			t.Errorf("%s vs %s: %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}
