package hyperion

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// jsText is how JavaScript writes parseFloat of an asset's amount: the
// shortest decimal, an exponent below 1e-6 and from 1e21.
func jsText(x float64) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(x, 'e', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// TestExactAssetRoundTrip: every amount below 2^52 units comes back
// exactly from the float Hyperion writes for it, at every precision; an
// amount above, or a float no amount gives, is refused, never guessed.
func TestExactAssetRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		p := uint8(r.IntN(19))
		var units int64
		switch i % 4 {
		case 0:
			units = r.Int64N(1 << 52)
		case 1:
			units = r.Int64N(1_000_000)
		case 2:
			units = (1 << 52) - 1 - r.Int64N(1000)
		default:
			units = -r.Int64N(1 << 40)
		}
		s := antelope.Symbol{Precision: p, Code: antelope.MustSymbolCode("EOS")}
		want := antelope.Asset{Amount: units, Symbol: s}
		text := want.String()
		x, _ := strconv.ParseFloat(text[:len(text)-4], 64) // parseFloat("1.2345 EOS".split(' ')[0])
		got, err := exactAsset(jsText(x), s)
		if err != nil || got != want {
			t.Fatalf("%s: float %s gives %v, %v", text, jsText(x), got, err)
		}
	}
	// Above 2^52 units, neighbours share a float: refused.
	for _, units := range []int64{1 << 53, 1<<53 + 1, math.MaxInt64} {
		s := antelope.MustSymbol("4,EOS")
		x := float64(units) / 1e4
		if a, err := exactAsset(jsText(x), s); err == nil {
			t.Errorf("%d units: %v from a float that several amounts give", units, a)
		}
	}
	// A float with more decimals than the precision that no amount gives.
	if a, err := exactAsset("0.00005", antelope.MustSymbol("4,EOS")); err == nil {
		t.Errorf("0.00005 at precision 4 gave %v", a)
	}
	// 0.1+0.2 is no amount of 4 decimals: refused, not rounded.
	if a, err := exactAsset("0.30000000000000004", antelope.MustSymbol("4,EOS")); err == nil {
		t.Errorf("0.30000000000000004 gave %v", a)
	}
}
