package antelope

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestInt128JSONMatchesBig holds the allocation-free 128-bit decimal
// printing and reading to math/big, on the extremes and on random values
// of every length, including texts the fast reader hands to math/big.
func TestInt128JSONMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	words := [][2]uint64{{0, 0}, {1, 0}, {^uint64(0), 0}, {0, 1}, {^uint64(0), ^uint64(0)}, {0, 1 << 63}, {^uint64(0), 1<<63 - 1},
		{1e19 - 1, 0}, {1e19, 0}, {0x8ac7230489e80000, 0x5}}
	for range 20000 {
		w := [2]uint64{rng.Uint64(), rng.Uint64()}
		w[1] >>= rng.UintN(64)
		if rng.IntN(3) == 0 {
			w[1] = 0
			w[0] >>= rng.UintN(64)
		}
		words = append(words, w)
	}
	for _, w := range words {
		u, i := Uint128{Lo: w[0], Hi: w[1]}, Int128{Lo: w[0], Hi: w[1]}
		for _, c := range []struct {
			v    interface{ AppendJSON([]byte) ([]byte, error) }
			want *big.Int
		}{{u, u.Big()}, {i, i.Big()}} {
			got, _ := c.v.AppendJSON(nil)
			if string(got) != `"`+c.want.String()+`"` {
				t.Fatalf("%#x: %s, want %s", w, got, c.want)
			}
		}
		text, _ := i.AppendJSON(nil)
		var back Int128
		if err := UnmarshalJSON(text, &back); err != nil || back != i {
			t.Fatalf("%s read back as %#v, %v", text, back, err)
		}
		text, _ = u.AppendJSON(nil)
		var ub Uint128
		if err := UnmarshalJSON(text, &ub); err != nil || ub != u {
			t.Fatalf("%s read back as %#v, %v", text, ub, err)
		}
	}
	for _, s := range []string{`"-0"`, `"007"`, `"0x10"`, `"-1"`, `"340282366920938463463374607431768211456"`,
		`"170141183460469231731687303715884105728"`, `"-170141183460469231731687303715884105728"`,
		`"-170141183460469231731687303715884105729"`, `"+1"`, `"1_0"`, `""`, `"-"`, `12`, `"99999999999999999999999999999999999999999"`} {
		var u, wantU Uint128
		var i, wantI Int128
		errU := UnmarshalJSON([]byte(s), &u)
		errI := UnmarshalJSON([]byte(s), &i)
		var wantErrU, wantErrI error
		if s[0] != '"' {
			wantU, wantI = Uint128{Lo: 12}, Int128{Lo: 12}
		} else {
			text := []byte(s[1 : len(s)-1])
			if v, err := parseBig128("uint128", text); err != nil {
				wantErrU = err
			} else {
				wantU, wantErrU = Uint128FromBig(v)
			}
			if v, err := parseBig128("int128", text); err != nil {
				wantErrI = err
			} else {
				wantI, wantErrI = Int128FromBig(v)
			}
		}
		if u != wantU || (errU == nil) != (wantErrU == nil) || errU != nil && errU.Error() != wantErrU.Error() {
			t.Errorf("uint128 %s: %#v, %v; want %#v, %v", s, u, errU, wantU, wantErrU)
		}
		if i != wantI || (errI == nil) != (wantErrI == nil) || errI != nil && errI.Error() != wantErrI.Error() {
			t.Errorf("int128 %s: %#v, %v; want %#v, %v", s, i, errI, wantI, wantErrI)
		}
	}
}
