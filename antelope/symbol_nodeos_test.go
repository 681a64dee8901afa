package antelope

import (
	"math/rand/v2"
	"testing"
)

// nodeosSymbolValid is spring's symbol::valid() on a packed symbol value:
// precision at most 18, and name() — the code's bytes from the lowest up to
// the last non-zero one, zero bytes in between included — all A–Z. The empty
// name is valid.
func nodeosSymbolValid(v uint64) bool {
	if byte(v) > MaxPrecision {
		return false
	}
	for c := v >> 8; c > 0; c >>= 8 {
		if ch := byte(c); ch < 'A' || ch > 'Z' {
			return false
		}
	}
	return true
}

// nodeosSymbolCodeValid is whether nodeos can print a symbol_code: it builds
// symbol(code << 8), so an 8th byte is lost and the rest must be a valid name.
func nodeosSymbolCodeValid(v uint64) bool {
	return v>>56 == 0 && nodeosSymbolValid(v<<8)
}

// randomSymbolBytes draws packed values whose bytes are mostly letters or
// zero, the places where validity rules differ.
func randomSymbolBytes(r *rand.Rand) uint64 {
	var v uint64
	n := r.IntN(9)
	for i := range n {
		var ch byte
		switch r.IntN(6) {
		case 0:
			ch = 0
		case 1:
			ch = byte(r.IntN(256))
		default:
			ch = byte('A' + r.IntN(26))
		}
		v |= uint64(ch) << (8 * i)
	}
	return v
}

// The runtime accepts exactly the symbols and symbol codes nodeos accepts,
// binary and JSON: a model-based sweep against spring's rule.
func TestSymbolValidityMatchesNodeos(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 0))
	edges := []uint64{0, 0x41, 0x4100, 0x410041, 0x5a5a5a5a5a5a5a, 0x5a5a5a5a5a5a5a5a, 0x12, 0x13, 0x1200, 0xff}
	for i := range 20000 + len(edges) {
		var v uint64
		if i < len(edges) {
			v = edges[i]
		} else {
			v = randomSymbolBytes(r)
			if r.IntN(2) == 0 {
				v = v<<8 | uint64(r.IntN(21))
			}
		}
		sym := Symbol{Precision: uint8(v), Code: SymbolCode(v >> 8)}
		want := nodeosSymbolValid(v)
		var got Symbol
		err := got.UnmarshalBinary(AppendUint64(nil, v))
		if (err == nil) != want || sym.Valid() != want {
			t.Fatalf("symbol %#x: decode error %v, Valid %v; nodeos valid %v", v, err, sym.Valid(), want)
		}
		if want {
			j, err := sym.MarshalJSON()
			if err != nil {
				t.Fatalf("symbol %#x: MarshalJSON: %v", v, err)
			}
			var back Symbol
			if err := back.UnmarshalJSON(j); err != nil || back != sym {
				t.Fatalf("symbol %#x: JSON %s read back as %v, %v", v, j, back, err)
			}
		}
		code := SymbolCode(v)
		wantCode := nodeosSymbolCodeValid(v)
		var gotCode SymbolCode
		err = gotCode.UnmarshalBinary(AppendUint64(nil, v))
		if (err == nil) != wantCode || code.Valid() != wantCode {
			t.Fatalf("symbol_code %#x: decode error %v, Valid %v; nodeos valid %v", v, err, code.Valid(), wantCode)
		}
		if wantCode {
			j, err := code.MarshalJSON()
			if err != nil {
				t.Fatalf("symbol_code %#x: MarshalJSON: %v", v, err)
			}
			var back SymbolCode
			if err := back.UnmarshalJSON(j); err != nil || back != code {
				t.Fatalf("symbol_code %#x: JSON %s read back as %v, %v", v, j, back, err)
			}
		}
	}
}

// eosio.system's voters row holds reserved3 = asset{}: amount 0 and the
// all-zero symbol, which nodeos prints as "0 ". It must decode, print and
// read back, binary and JSON.
func TestZeroAssetAsNodeosPrintsIt(t *testing.T) {
	var a Asset
	if err := a.UnmarshalBinary(make([]byte, 16)); err != nil {
		t.Fatalf("asset{} binary: %v", err)
	}
	if a != (Asset{}) {
		t.Fatalf("asset{} decoded as %#v", a)
	}
	for _, c := range []struct {
		a    Asset
		json string
	}{
		{Asset{}, `"0 "`},
		{Asset{Amount: -5, Symbol: Symbol{Precision: 4}}, `"-0.0005 "`},
	} {
		j, err := c.a.MarshalJSON()
		if err != nil || string(j) != c.json {
			t.Errorf("%#v: JSON %s, %v; want %s", c.a, j, err, c.json)
		}
		var back Asset
		if err := back.UnmarshalJSON([]byte(c.json)); err != nil || back != c.a {
			t.Errorf("%s read back as %#v, %v", c.json, back, err)
		}
		b, err := c.a.MarshalBinary()
		if err != nil {
			t.Fatalf("%#v: binary: %v", c.a, err)
		}
		var bb Asset
		if err := bb.UnmarshalBinary(b); err != nil || bb != c.a {
			t.Errorf("%#v: binary read back as %#v, %v", c.a, bb, err)
		}
	}
	if s := (Symbol{}).String(); s != "0," {
		t.Errorf("Symbol{} prints %q, want nodeos's \"0,\"", s)
	}
	if s := SymbolCode(0).String(); s != "" {
		t.Errorf("SymbolCode(0) prints %q, want nodeos's \"\"", s)
	}
	var sym Symbol
	if err := sym.UnmarshalJSON([]byte(`"4,"`)); err != nil || sym != (Symbol{Precision: 4}) {
		t.Errorf(`"4," read as %v, %v`, sym, err)
	}
	// nodeos needs the space between amount and code; "0" alone is not an asset.
	for _, bad := range []string{`"0"`, `"1.0"`, `""`, `" "`} {
		if err := new(Asset).UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s accepted as an asset", bad)
		}
	}
}
