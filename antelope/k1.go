package antelope

import (
	"crypto/ecdh"
	"crypto/rand"
	"io"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// The curve arithmetic is decred's secp256k1 (constant-time where it
// matters); what is Antelope's own is here: the nonce, the canonical test,
// the 65-byte signature layout and the key text forms.

// maxSignAttempts bounds the canonical retry loop. Each attempt passes with
// probability about 1/2, so reaching the bound does not happen; the
// personalization byte of elliptic's DRBG could not count further anyway.
const maxSignAttempts = 255

// k1Scalar returns the secret as a scalar, refusing 0 and values ≥ n, which
// are not private keys (nodeos and wharfkit cannot use them either).
func (k PrivateKey) k1Scalar() (secp256k1.ModNScalar, error) {
	var d secp256k1.ModNScalar
	s := k.RevealBytes()
	if overflow := d.SetBytes(&s); overflow != 0 || d.IsZero() {
		return d, valueErr("private_key", "", "the secret is 0 or not below the curve order")
	}
	return d, nil
}

// PublicKey derives the public key, K1 or R1. It prints exactly as the same
// key parsed from text prints ("EOS…" for K1).
func (k PrivateKey) PublicKey() (PublicKey, error) {
	switch k.typ {
	case KeyK1:
		d, err := k.k1Scalar()
		if err != nil {
			return PublicKey{}, err
		}
		var p secp256k1.JacobianPoint
		secp256k1.ScalarBaseMultNonConst(&d, &p)
		p.ToAffine()
		return PublicKey{Type: KeyK1, Data: secp256k1.NewPublicKey(&p.X, &p.Y).SerializeCompressed()}, nil
	case KeyR1:
		s := k.RevealBytes()
		priv, err := ecdh.P256().NewPrivateKey(s[:])
		if err != nil {
			return PublicKey{}, valueErr("private_key", "", "the secret is 0 or not below the P-256 order")
		}
		u := priv.PublicKey().Bytes() // 0x04 ‖ X ‖ Y
		c := make([]byte, 33)
		c[0] = 0x02 | u[64]&1
		copy(c[1:], u[1:33])
		return PublicKey{Type: KeyR1, Data: c}, nil
	}
	return PublicKey{}, k.check()
}

// SignDigest signs a 32-byte digest (a transaction's SigningDigest) with a
// K1 key, exactly as @wharfkit/antelope's PrivateKey.signDigest and eosjs do:
// deterministic RFC 6979 nonces from elliptic's HMAC-DRBG personalized with
// an attempt counter 1, 2, …, low S, and a new attempt until r and s pass the
// chain's historical "canonical" test (neither has its top bit set nor a
// needless leading zero byte). The same key and digest always give the same
// signature.
func (k PrivateKey) SignDigest(digest Checksum256) (Signature, error) {
	if k.typ != KeyK1 {
		return Signature{}, valueErr("private_key", "", "signing is implemented for K1 keys only")
	}
	d, err := k.k1Scalar()
	if err != nil {
		return Signature{}, err
	}
	sig, err := signK1(&d, (*[32]byte)(&digest))
	if err != nil {
		return Signature{}, err
	}
	return Signature{Type: KeyK1, Data: sig[:]}, nil
}

// nMinus1 is the curve order minus one: elliptic refuses a nonce k ≥ n−1.
var nMinus1 = func() secp256k1.ModNScalar {
	var one, m secp256k1.ModNScalar
	one.SetInt(1)
	m.NegateVal(&one) // −1 mod n = n−1
	return m
}()

func signK1(d *secp256k1.ModNScalar, digest *[32]byte) ([65]byte, error) {
	var out [65]byte
	var e secp256k1.ModNScalar
	e.SetBytes(digest) // reduced mod n, as elliptic's _truncateToN does
	eb := e.Bytes()
	db := d.Bytes()
	for attempt := 1; attempt <= maxSignAttempts; attempt++ {
		drbg := newNonceDRBG(&db, &eb, byte(attempt))
		for {
			kb := drbg.generate()
			var k secp256k1.ModNScalar
			if overflow := k.SetBytes(&kb); overflow != 0 {
				continue
			}
			// elliptic takes k only when 1 < k < n−1.
			if k.IsZero() || k.Equals(new(secp256k1.ModNScalar).SetInt(1)) || k.Equals(&nMinus1) {
				continue
			}
			var kG secp256k1.JacobianPoint
			secp256k1.ScalarBaseMultNonConst(&k, &kG)
			kG.ToAffine()
			xb := kG.X.Bytes()
			var r secp256k1.ModNScalar
			overflow := r.SetBytes(xb)
			if r.IsZero() {
				continue
			}
			recid := byte(kG.Y.IsOddBit()) | byte(overflow<<1)
			kinv := new(secp256k1.ModNScalar).InverseValNonConst(&k)
			s := new(secp256k1.ModNScalar).Mul2(d, &r).Add(&e).Mul(kinv)
			if s.IsZero() {
				continue
			}
			if s.IsOverHalfOrder() {
				s.Negate()
				recid ^= 1
			}
			out[0] = 27 + 4 + recid
			r.PutBytesUnchecked(out[1:33])
			s.PutBytesUnchecked(out[33:65])
			break
		}
		if isCanonicalK1(out[1:33], out[33:65]) {
			return out, nil
		}
	}
	return out, valueErr("signature", "", "no canonical signature within the attempt limit")
}

// isCanonicalK1 is the EOSIO "canonical" test (fc's is_canonical), which
// signers still apply so that older nodes accept the signature.
func isCanonicalK1(r, s []byte) bool {
	return r[0]&0x80 == 0 && (r[0] != 0 || r[1]&0x80 != 0) &&
		s[0]&0x80 == 0 && (s[0] != 0 || s[1]&0x80 != 0)
}

// RecoverPublicKey returns the K1 public key that made the signature over
// digest, as nodeos recovers the keys of a transaction's signatures. It fails
// for a signature that no key made (r or s out of range, no curve point).
func (s Signature) RecoverPublicKey(digest Checksum256) (PublicKey, error) {
	if s.Type != KeyK1 {
		return PublicKey{}, valueErr("signature", "", "public key recovery is implemented for K1 signatures only")
	}
	if len(s.Data) != 65 {
		return PublicKey{}, valueErr("signature", "", "a K1 signature is 65 bytes")
	}
	// Antelope's first byte is 27 + 4 + recovery id, decred's compact form
	// for a compressed key; nodeos (fc) also accepts 27…30.
	pub, _, err := ecdsa.RecoverCompact(s.Data, digest[:])
	if err != nil {
		return PublicKey{}, valueErr("signature", "", "cannot recover a public key: "+err.Error())
	}
	return PublicKey{Type: KeyK1, Data: pub.SerializeCompressed()}, nil
}

// Verify reports whether sig is k's signature of digest. For K1 it is the
// chain's own test: the key recovered from the signature is k. For R1 the
// signature is checked with P-256 ECDSA; WA is not supported.
func (k PublicKey) Verify(digest Checksum256, sig Signature) bool {
	if sig.Type != k.Type {
		return false
	}
	switch k.Type {
	case KeyK1:
		got, err := sig.RecoverPublicKey(digest)
		return err == nil && got.Equal(k)
	case KeyR1:
		return verifyR1(k.Data, digest[:], sig.Data)
	}
	return false
}

// Equal reports whether k and o are the same key.
func (k PublicKey) Equal(o PublicKey) bool {
	return k.Type == o.Type && string(k.Data) == string(o.Data)
}

// GeneratePrivateKey makes a new random K1 key from rand (crypto/rand's
// Reader when nil).
func GeneratePrivateKey(random io.Reader) (PrivateKey, error) {
	if random == nil {
		random = rand.Reader
	}
	p, err := secp256k1.GeneratePrivateKeyFromRand(random)
	if err != nil {
		return PrivateKey{}, valueErr("private_key", "", "generating: "+err.Error())
	}
	var s [32]byte
	p.Key.PutBytes(&s)
	p.Zero()
	return NewPrivateKey(KeyK1, s)
}
