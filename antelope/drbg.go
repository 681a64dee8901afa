package antelope

import (
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
//
// HMAC is computed here over two reused SHA-256 states rather than with
// crypto/hmac, whose key changes on every update: signing would otherwise
// allocate a new HMAC a dozen times per attempt.
type nonceDRBG struct {
	k, v         [32]byte
	inner, outer hash.Hash
	// scratch is mac's: what it hands the hashes would escape to the heap
	// from its stack (they are interfaces), a dozen times per attempt.
	scratch struct {
		pad     [64]byte
		in, out [32]byte
		sep     [1]byte
		seed    [65]byte // reset's
	}
}

func newNonceDRBG(secret, digest *[32]byte, pers byte) *nonceDRBG {
	g := &nonceDRBG{inner: sha256.New(), outer: sha256.New()}
	g.reset(secret, digest, pers)
	return g
}

// reset seeds g anew, as hmac-drbg's constructor does: K = 0…0, V = 1…1,
// then update(secret ‖ digest ‖ pers).
func (g *nonceDRBG) reset(secret, digest *[32]byte, pers byte) {
	g.k = [32]byte{}
	for i := range g.v {
		g.v[i] = 0x01
	}
	seed := &g.scratch.seed
	copy(seed[:32], secret[:])
	copy(seed[32:64], digest[:])
	seed[64] = pers
	g.update(seed[:])
}

// mac returns HMAC-SHA256(K, V ‖ sep ‖ seed); sep < 0 means no separator.
func (g *nonceDRBG) mac(sep int, seed []byte) [32]byte {
	x := &g.scratch
	for i := range x.pad {
		x.pad[i] = 0x36
	}
	for i, b := range g.k {
		x.pad[i] ^= b
	}
	g.inner.Reset()
	g.inner.Write(x.pad[:])
	g.inner.Write(g.v[:])
	if sep >= 0 {
		x.sep[0] = byte(sep)
		g.inner.Write(x.sep[:])
	}
	g.inner.Write(seed)
	g.inner.Sum(x.in[:0])
	for i := range x.pad {
		x.pad[i] ^= 0x36 ^ 0x5c
	}
	g.outer.Reset()
	g.outer.Write(x.pad[:])
	g.outer.Write(x.in[:])
	g.outer.Sum(x.out[:0])
	return x.out
}

// update is hmac-drbg's _update: K = HMAC(K, V‖0x00‖seed), V = HMAC(K, V),
// and, when seed is not empty, once more with 0x01.
func (g *nonceDRBG) update(seed []byte) {
	g.k = g.mac(0x00, seed)
	g.v = g.mac(-1, nil)
	if len(seed) == 0 {
		return
	}
	g.k = g.mac(0x01, seed)
	g.v = g.mac(-1, nil)
}

// generate returns the next 32 bytes: V = HMAC(K, V), then update(nil).
func (g *nonceDRBG) generate() [32]byte {
	g.v = g.mac(-1, nil)
	out := g.v
	g.update(nil)
	return out
}
