package antelope

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestKeyTextCache: a key prints the same text whether or not the cache
// holds it, with more keys than the cache keeps, from several goroutines
// at once (go test -race), and a key changed in place prints its new text.
func TestKeyTextCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	keys := make([]PublicKey, 3*keyCacheSets*keyCacheWays)
	for i := range keys {
		data := make([]byte, 33)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		data[0] = 2 + byte(i&1)
		keys[i] = PublicKey{Type: KeyType(i % 2), Data: data} // K1 and R1
	}
	uncached := func(k PublicKey) string {
		if k.Type == KeyK1 {
			return string(appendKeyString(nil, "EOS", k.Data, ""))
		}
		return string(appendKeyString(nil, "PUB_R1_", k.Data, "R1"))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 3 {
				for i := range keys {
					k := keys[(i*7+g*13+round)%len(keys)]
					if got, want := k.String(), uncached(k); got != want {
						t.Errorf("%x: %s, want %s", k.Data, got, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	k := PublicKey{Type: KeyK1, Data: append([]byte(nil), keys[0].Data...)}
	before := k.String()
	k.Data[20] ^= 1
	if after := k.String(); after == before || after != uncached(k) {
		t.Fatalf("a key changed in place prints %s (was %s, want %s)", after, before, uncached(k))
	}
}
