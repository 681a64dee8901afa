package antelope

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// nonceDRBG is the HMAC-DRBG (SHA-256) of NIST SP 800-90A as the JavaScript
// elliptic library implements it (hmac-drbg), which @wharfkit/antelope and
// eosjs use for their deterministic K1 nonces: seeded with the private key,
// the digest reduced mod n and a personalization string, and updated with no
// additional data after each output. With an empty personalization string it
// is exactly RFC 6979 §3.2; Antelope's signers pass one byte, the attempt
// counter, so that every attempt gets a fresh nonce.
type nonceDRBG struct {
	k, v [32]byte
	mac  hash.Hash // keyed with k; rebuilt whenever k changes
}

func newNonceDRBG(secret, digest *[32]byte, pers byte) *nonceDRBG {
	g := &nonceDRBG{}
	for i := range g.v {
		g.v[i] = 0x01
	}
	var seed [65]byte
	copy(seed[:32], secret[:])
	copy(seed[32:64], digest[:])
	seed[64] = pers
	g.update(seed[:])
	return g
}

func (g *nonceDRBG) hmacV(parts ...[]byte) [32]byte {
	g.mac.Reset()
	g.mac.Write(g.v[:])
	for _, p := range parts {
		g.mac.Write(p)
	}
	var out [32]byte
	g.mac.Sum(out[:0])
	return out
}

func (g *nonceDRBG) rekey(parts ...[]byte) {
	if g.mac == nil {
		g.mac = hmac.New(sha256.New, g.k[:])
	}
	g.k = g.hmacV(parts...)
	g.mac = hmac.New(sha256.New, g.k[:])
	g.v = g.hmacV()
}

// update is hmac-drbg's _update: K = HMAC(K, V‖0x00‖seed), V = HMAC(K, V),
// and, when seed is not empty, once more with 0x01.
func (g *nonceDRBG) update(seed []byte) {
	g.rekey([]byte{0x00}, seed)
	if len(seed) == 0 {
		return
	}
	g.rekey([]byte{0x01}, seed)
}

// generate returns the next 32 bytes: V = HMAC(K, V), then update(nil).
func (g *nonceDRBG) generate() [32]byte {
	g.v = g.hmacV()
	out := g.v
	g.update(nil)
	return out
}
