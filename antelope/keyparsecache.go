package antelope

import (
	"encoding/binary"
	"sync"
)

// keyParseCache remembers the K1 and R1 public keys recently parsed from
// text, by their whole text ("EOS…", "PUB_K1_…", "PUB_R1_…"). Parsing one
// costs a base58 conversion and a RIPEMD-160 checksum, and the same key
// text recurs within a document: a producers row holds its key twice
// (producer_key and the authority), an account's permissions repeat keys,
// and a table polled again repeats them all. An entry is used only when
// the text matches byte for byte, and it was stored only after the text
// parsed and its checksum verified, so a hit returns what parsing would.
// Bounded like keyTextCache (2,048 keys), never allocates, safe for
// concurrent use.
var keyParseCache [keyCacheSets]keyParseSet

// keyParseTextMax is the longest text kept: "PUB_R1_" and a key's base58.
const keyParseTextMax = len("PUB_R1_") + keyTextMax

type keyParseSet struct {
	mu   sync.Mutex
	next uint8 // the way the next new key replaces
	keys [keyCacheWays]keyParseEntry
}

type keyParseEntry struct {
	n    uint8 // text length; 0: unused
	typ  KeyType
	text [keyParseTextMax]byte
	data [keyDataLen]byte
}

// keyParseSetOf picks the set of a text by its last eight characters, the
// base58 of the checksum and the point's low bytes: as good as random.
func keyParseSetOf(text []byte) *keyParseSet {
	h := binary.LittleEndian.Uint64(text[len(text)-8:])
	h *= 0x9e3779b97f4a7c15
	return &keyParseCache[h>>(64-9)]
}

// cachedParsedKey returns the key text parsed to, when the cache holds it.
func cachedParsedKey(text []byte) (PublicKey, bool) {
	if len(text) < 8 || len(text) > keyParseTextMax {
		return PublicKey{}, false
	}
	s := keyParseSetOf(text)
	s.mu.Lock()
	for i := range s.keys {
		e := &s.keys[i]
		if int(e.n) == len(text) && string(e.text[:e.n]) == string(text) {
			k := PublicKey{Type: e.typ, Data: append(make([]byte, 0, keyDataLen), e.data[:]...)}
			s.mu.Unlock()
			return k, true
		}
	}
	s.mu.Unlock()
	return PublicKey{}, false
}

// cacheParsedKey remembers that text parsed to the K1 or R1 key k.
func cacheParsedKey(text []byte, k PublicKey) {
	if len(text) < 8 || len(text) > keyParseTextMax || k.Type == KeyWA || len(k.Data) != keyDataLen {
		return
	}
	s := keyParseSetOf(text)
	s.mu.Lock()
	e := &s.keys[s.next%keyCacheWays]
	s.next++
	e.n, e.typ = uint8(len(text)), k.Type
	copy(e.text[:], text)
	copy(e.data[:], k.Data)
	s.mu.Unlock()
}
