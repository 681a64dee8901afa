package antelope

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAssetTextMatchesBig: an asset prints as nodeos's asset::to_string
// (sign, the magnitude with exactly precision decimals and at least one
// integer digit, a space, the code), modelled with math/big, for random
// amounts of every size and every precision, at the edges of the range,
// and for the invalid values String must still print.
func TestAssetTextMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 35))
	amounts := []int64{0, 1, -1, 9, 10, MaxAssetAmount, -MaxAssetAmount, math.MaxInt64, math.MinInt64}
	for range 20000 {
		amounts = append(amounts, rng.Int64()>>rng.IntN(64))
	}
	codes := []SymbolCode{0, MustSymbolCode("A"), MustSymbolCode("EOS"), MustSymbolCode("ABCDEFG"), 0x41004100, 0xff41}
	for i, amount := range amounts {
		for _, prec := range []uint8{uint8(i % 19), uint8(rng.IntN(19)), 0, 18, 25} {
			code := codes[rng.IntN(len(codes))]
			a := Asset{Amount: amount, Symbol: Symbol{Precision: prec, Code: code}}
			mag := new(big.Int).Abs(big.NewInt(amount)).String()
			p := min(int(prec), MaxPrecision)
			if len(mag) <= p {
				mag = strings.Repeat("0", p+1-len(mag)) + mag
			}
			want := mag
			if p > 0 {
				want = mag[:len(mag)-p] + "." + mag[len(mag)-p:]
			}
			if amount < 0 {
				want = "-" + want
			}
			var codeText []byte
			for v := uint64(code); v != 0; v >>= 8 {
				codeText = append(codeText, byte(v))
			}
			want += " " + string(codeText)
			if got := a.String(); got != want {
				t.Fatalf("%d at precision %d: %q, want %q", amount, prec, got, want)
			}
		}
	}
}

// TestSymbolCodeValidMatchesLoop holds Valid to its definition (every byte
// up to the last non-zero one a letter A–Z, at most 7 of them) on random
// codes near the valid ones and on raw random values.
func TestSymbolCodeValidMatchesLoop(t *testing.T) {
	valid := func(v uint64) bool {
		n := 0
		for ; v != 0; v >>= 8 {
			if ch := byte(v); ch < 'A' || ch > 'Z' {
				return false
			}
			n++
		}
		return n <= 7
	}
	rng := rand.New(rand.NewPCG(36, 37))
	edges := []byte{0, '@', 'A', 'B', 'Y', 'Z', '[', 0x7f, 0x80, 0xc1, 0xda, 0xff}
	for range 200000 {
		var v uint64
		n := rng.IntN(9)
		for i := range n {
			ch := byte('A' + rng.IntN(26))
			if rng.IntN(6) == 0 {
				ch = edges[rng.IntN(len(edges))]
			}
			v |= uint64(ch) << (8 * i)
		}
		if rng.IntN(10) == 0 {
			v = rng.Uint64()
		}
		if got, want := SymbolCode(v).Valid(), valid(v); got != want {
			t.Fatalf("%#x: Valid %v, want %v", v, got, want)
		}
	}
}
