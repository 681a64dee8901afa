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

// TestInt128ReadMatchesBig holds reading int128 and uint128 to math/big on
// random decimal texts of up to 42 digits, either sign, with leading zeros:
// the same value, or an error exactly where the value is out of range.
func TestInt128ReadMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 84))
	for range 50000 {
		var s []byte
		if rng.IntN(2) == 0 {
			s = append(s, '-')
		}
		for range 1 + rng.IntN(42) {
			s = append(s, byte('0'+rng.IntN(10)))
		}
		x, _ := new(big.Int).SetString(string(s), 10)
		wantU, errU := Uint128FromBig(x)
		wantI, errI := Int128FromBig(x)
		for _, js := range []string{string(s), `"` + string(s) + `"`} {
			var u Uint128
			var i Int128
			eu := UnmarshalJSON([]byte(js), &u)
			ei := UnmarshalJSON([]byte(js), &i)
			if js[0] != '"' && (len(s) > 1 && s[0] == '0' || len(s) > 2 && s[0] == '-' && s[1] == '0') {
				continue // a JSON number cannot have leading zeros
			}
			if (eu == nil) != (errU == nil) || eu == nil && u != wantU {
				t.Fatalf("uint128 %s: %#v %v, want %#v %v", js, u, eu, wantU, errU)
			}
			if (ei == nil) != (errI == nil) || ei == nil && i != wantI {
				t.Fatalf("int128 %s: %#v %v, want %#v %v", js, i, ei, wantI, errI)
			}
		}
	}
}
