package antelope

import (
	"encoding/binary"
	"sync"
)

// keyTextCache remembers the base58 text of recently printed K1 and R1
// public keys. Printing one costs a RIPEMD-160 checksum and a base58
// conversion, about 0.3 µs: more than encoding/json spends on a whole row
// of strings, and a producers row holds its key twice (producer_key and
// the authority). The keys a program prints recur — the same table polled
// again, an account's permissions, a producer's key in both fields — so
// the text is kept, checked byte for byte against the key on every use.
// It is bounded (2,048 keys, about 180 KB once filled), never allocates,
// and is safe for concurrent use.
var keyTextCache [keyCacheSets]keyCacheSet

const (
	keyCacheSets = 512 // sets of keyCacheWays keys, chosen by the key's bits
	keyCacheWays = 4
	keyDataLen   = 33 // a compressed K1 or R1 point
	keyTextMax   = 51 // base58 of 37 bytes: 33 and the checksum
)

type keyCacheSet struct {
	mu   sync.Mutex
	next uint8 // the way the next new key replaces
	keys [keyCacheWays]keyCacheEntry
}

type keyCacheEntry struct {
	used bool
	typ  KeyType
	n    uint8 // text length
	data [keyDataLen]byte
	text [keyTextMax]byte
}

// keyCacheSetOf picks the set of a key: bytes 1–8 are the point's
// x-coordinate, as good as random.
func keyCacheSetOf(kt KeyType, data []byte) *keyCacheSet {
	h := binary.LittleEndian.Uint64(data[1:9]) ^ uint64(kt)
	h *= 0x9e3779b97f4a7c15
	return &keyTextCache[h>>(64-9)]
}

// appendCachedKeyText appends the base58 text of a K1 or R1 key (without
// its prefix) from the cache, reporting false when it is not there.
func appendCachedKeyText(b []byte, kt KeyType, data []byte) ([]byte, bool) {
	if len(data) != keyDataLen {
		return b, false
	}
	s := keyCacheSetOf(kt, data)
	s.mu.Lock()
	for i := range s.keys {
		e := &s.keys[i]
		if e.used && e.typ == kt && string(e.data[:]) == string(data) {
			b = append(b, e.text[:e.n]...)
			s.mu.Unlock()
			return b, true
		}
	}
	s.mu.Unlock()
	return b, false
}

// cacheKeyText remembers text as the base58 form of a K1 or R1 key.
func cacheKeyText(kt KeyType, data, text []byte) {
	if len(data) != keyDataLen || len(text) > keyTextMax {
		return
	}
	s := keyCacheSetOf(kt, data)
	s.mu.Lock()
	e := &s.keys[s.next%keyCacheWays]
	s.next++
	e.used, e.typ, e.n = true, kt, uint8(len(text))
	copy(e.data[:], data)
	copy(e.text[:], text)
	s.mu.Unlock()
}
