package oracle

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

// TestBoundVectors: for every key type @wharfkit/antelope sends, nodeos
// (chaintest.ParseBound, spring's rules) reads our bound and wharfkit's as
// the same key, and we read next_key as wharfkit does.
func TestBoundVectors(t *testing.T) {
	var file struct {
		Bounds []struct {
			Type            string `json:"type"`
			Value           string `json:"value"`
			WharfkitKeyType string `json:"wharfkit_key_type"`
			WharfkitBound   string `json:"wharfkit_bound"`
			NextKey         string `json:"next_key"`
			WharfkitNext    string `json:"wharfkit_next"`
		} `json:"bounds"`
	}
	readGzipJSON(t, keysVectors("bounds.json.gz"), &file)
	gaps := 0
	for i, v := range file.Bounds {
		var key antelope.TableKey
		keyType := antelope.IndexKeyType(v.Type)
		switch v.Type {
		case "i64", "name":
			n, _ := strconv.ParseUint(v.Value, 10, 64)
			key, keyType = antelope.KeyUint64(n), antelope.IndexI64
		case "i128":
			b, _ := new(big.Int).SetString(v.Value, 10)
			var be [16]byte
			b.FillBytes(be[:])
			key = antelope.KeyUint128(antelope.Uint128{Hi: binary.BigEndian.Uint64(be[:8]), Lo: binary.BigEndian.Uint64(be[8:])})
		case "float64":
			raw, _ := hex.DecodeString(v.Value)
			key = antelope.KeyFloat64(math.Float64frombits(binary.LittleEndian.Uint64(raw)))
		case "sha256":
			c, _ := antelope.ParseChecksum256(v.Value)
			key = antelope.KeySHA256(c)
		case "ripemd160":
			var c antelope.Checksum160
			raw, _ := hex.DecodeString(v.Value)
			copy(c[:], raw)
			key = antelope.KeyRipemd160(c)
		default:
			t.Fatalf("%d: type %s", i, v.Type)
		}
		text, enc := key.Bound()
		ours, err := chaintest.ParseBound(string(key.Type()), enc, text, true)
		if err != nil || !sameKey(ours, key) {
			t.Errorf("%d %s %s: our bound %q reads as %s, %v", i, v.Type, v.Value, text, ours, err)
		}
		if v.WharfkitBound == "" {
			gaps++ // wharfkit drops a bound whose text is empty: the name with value 0
		} else {
			theirs, err := chaintest.ParseBound(v.WharfkitKeyType, "dec", v.WharfkitBound, true)
			if err != nil || !sameKey(theirs, ours) {
				t.Errorf("%d %s: wharfkit's bound %q reads as %s, ours %q as %s (%v)", i, v.Type, v.WharfkitBound, theirs, text, ours, err)
			}
		}
		next, err := antelope.ParseNextKey(keyType, v.NextKey)
		if err != nil {
			t.Errorf("%d %s: next_key %q: %v", i, v.Type, v.NextKey, err)
			continue
		}
		var got string
		switch v.Type {
		case "i64", "i128":
			got, _ = next.Bound()
		case "name":
			got = antelope.Name(next.Uint64()).String()
		case "float64":
			got = hex.EncodeToString(binary.LittleEndian.AppendUint64(nil, math.Float64bits(next.Float64())))
		default:
			got, _ = next.Bound()
		}
		if got != v.WharfkitNext {
			t.Errorf("%d %s: next_key %q reads as %s; wharfkit reads %s", i, v.Type, v.NextKey, got, v.WharfkitNext)
		}
	}
	if len(file.Bounds) < 1000 {
		t.Errorf("only %d bound vectors", len(file.Bounds))
	}
	t.Logf("bound oracle: %d keys of 6 types: nodeos reads our bounds as wharfkit's, next_key as wharfkit does (%d empty wharfkit bounds)", len(file.Bounds), gaps)
}

// sameKey compares keys as an index does: -0 and 0 are one float key.
func sameKey(a, b antelope.TableKey) bool {
	if a.Type() != b.Type() {
		return false
	}
	if a.Type() == antelope.IndexFloat64 {
		return a.Float64() == b.Float64()
	}
	return a.Bytes() == b.Bytes()
}
