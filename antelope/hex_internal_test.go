package antelope

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestAppendHexIsEncodingHex: every byte value, and random slices appended
// after a prefix, print as encoding/hex prints them.
func TestAppendHexIsEncodingHex(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	inputs := [][]byte{nil, {}, all}
	rng := rand.New(rand.NewPCG(16, 2))
	for range 200 {
		v := make([]byte, rng.IntN(70))
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, v)
	}
	for _, v := range inputs {
		if got, want := string(appendHex([]byte("x:"), v)), "x:"+hex.EncodeToString(v); got != want {
			t.Fatalf("appendHex(%x) = %s, want %s", v, got, want)
		}
	}
}
