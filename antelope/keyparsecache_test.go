package antelope

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestKeyParseCache: a key text parses to the same key, and a bad text
// fails with the same error, whether or not the cache holds it, with more
// keys than the cache keeps, in every form (EOS…, PUB_K1_…, PUB_R1_…),
// from several goroutines at once (go test -race); a key parsed then
// printed gives the uncached text.
func TestKeyParseCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var texts []string
	for i := range 3 * keyCacheSets * keyCacheWays {
		data := make([]byte, 33)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		data[0] = 2 + byte(i&1)
		var text []byte
		switch i % 3 {
		case 0:
			text = appendKeyString(nil, "EOS", data, "")
		case 1:
			text = appendKeyString(nil, "PUB_K1_", data, "K1")
		default:
			text = appendKeyString(nil, "PUB_R1_", data, "R1")
		}
		texts = append(texts, string(text))
		if i%5 == 0 { // a changed character: a checksum mismatch, or not base58
			bad := []byte(text)
			bad[len(bad)-1-rng.IntN(20)] ^= 1 + byte(rng.IntN(3))
			texts = append(texts, string(bad))
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 3 {
				for i := range texts {
					s := []byte(texts[(i*7+g*13+round)%len(texts)])
					got, err := parsePublicKey(s)
					want, wantErr := parsePublicKeyText(s)
					if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
						t.Errorf("%s: error %v, want %v", s, err, wantErr)
						return
					}
					if err != nil {
						continue
					}
					if got.Type != want.Type || !bytes.Equal(got.Data, want.Data) {
						t.Errorf("%s: %v, want %v", s, got, want)
						return
					}
					printed := got.String()
					var uncached []byte
					if got.Type == KeyK1 {
						uncached = appendKeyString(nil, "EOS", got.Data, "")
					} else {
						uncached = appendKeyString(nil, "PUB_R1_", got.Data, "R1")
					}
					if printed != string(uncached) {
						t.Errorf("%s prints %s, want %s", s, printed, uncached)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	// A hit hands out its own copy: changing it changes no later parse.
	k1, _ := parsePublicKey([]byte(texts[0]))
	k1.Data[5] ^= 0xff
	if k2, _ := parsePublicKey([]byte(texts[0])); bytes.Equal(k1.Data, k2.Data) {
		t.Fatal("a cached key's data is shared with the caller")
	}
}

// FuzzKeyParseCache: a valid key text (EOS…, PUB_K1_… or PUB_R1_… of any
// 33 bytes) parsed into the cache, then the same text with one byte
// replaced, cut or lengthened, parses as without the cache; the original
// still parses to its bytes and prints its canonical text. Where
// FuzzParseKeys mostly meets texts that fail, this one reaches hits.
func FuzzKeyParseCache(f *testing.F) {
	f.Add(bytes.Repeat([]byte{2}, 33), uint8(0), uint8(10), byte('1'), uint8(0))
	f.Add(make([]byte, 33), uint8(1), uint8(3), byte('_'), uint8(1))
	f.Add(bytes.Repeat([]byte{0xff}, 33), uint8(2), uint8(50), byte('z'), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, kind, pos uint8, c byte, edit uint8) {
		d := make([]byte, keyDataLen)
		copy(d, data)
		prefixes := [...]string{"EOS", "PUB_K1_", "PUB_R1_"}
		suffixes := [...]string{"", "K1", "R1"}
		k := int(kind % 3)
		text := appendKeyString(nil, prefixes[k], d, suffixes[k])
		if got, err := parsePublicKey(text); err != nil || !bytes.Equal(got.Data, d) {
			t.Fatalf("%s: %v, %v", text, got, err)
		}
		m := bytes.Clone(text)
		i := int(pos) % len(m)
		switch edit % 3 {
		case 0:
			m[i] = c
		case 1:
			m = m[:i]
		default:
			m = append(m, c)
		}
		for range 2 { // a miss, then a possible hit
			got, err := parsePublicKey(m)
			want, wantErr := parsePublicKeyText(m)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() ||
				got.Type != want.Type || !bytes.Equal(got.Data, want.Data) {
				t.Fatalf("%q: %v, %v; uncached %v, %v", m, got, err, want, wantErr)
			}
		}
		got, err := parsePublicKey(text)
		if err != nil || !bytes.Equal(got.Data, d) || got.Type != KeyType(k/2) {
			t.Fatalf("%s after %q: %v, %v", text, m, got, err)
		}
		canonical := appendKeyString(nil, "EOS", d, "")
		if k == 2 {
			canonical = text
		}
		if s := got.String(); s != string(canonical) {
			t.Fatalf("%s prints %s, want %s", text, s, canonical)
		}
	})
}
