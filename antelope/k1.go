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
// key parsed from text prints ("EOS…" for K1). It is derived once per key.
func (k PrivateKey) PublicKey() (PublicKey, error) {
	if k.pub == nil {
		return k.derivePublicKey()
	}
	k.pub.once.Do(func() { k.pub.key, k.pub.err = k.derivePublicKey() })
	if k.pub.err != nil {
		return PublicKey{}, k.pub.err
	}
	return PublicKey{Type: k.pub.key.Type, Data: append([]byte(nil), k.pub.key.Data...)}, nil
}

func (k PrivateKey) derivePublicKey() (PublicKey, error) {
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

// one and nMinus1 (the curve order minus one) bound the nonces elliptic
// takes: 1 < k < n−1.
var (
	one     = *new(secp256k1.ModNScalar).SetInt(1)
	nMinus1 = *new(secp256k1.ModNScalar).NegateVal(&one) // −1 mod n
)

func signK1(d *secp256k1.ModNScalar, digest *[32]byte) ([65]byte, error) {
	var e secp256k1.ModNScalar
	e.SetBytes(digest) // reduced mod n, as elliptic's _truncateToN does
	eb := e.Bytes()
	db := d.Bytes()
	var drbg *nonceDRBG
	for attempt := 1; attempt <= maxSignAttempts; attempt++ {
		if drbg == nil {
			drbg = newNonceDRBG(&db, &eb, byte(attempt))
		} else {
			drbg.reset(&db, &eb, byte(attempt))
		}
		if sig, ok := signAttempt(drbg, d, &e); ok {
			return sig, nil
		}
	}
	return [65]byte{}, valueErr("signature", "", "no canonical signature within the attempt limit")
}

// signAttempt is elliptic's sign with one DRBG: the first nonce 1 < k < n−1
// giving r ≠ 0 and s ≠ 0, S made low. ok reports whether the signature
// passes the canonical test.
func signAttempt(drbg *nonceDRBG, d, e *secp256k1.ModNScalar) (sig [65]byte, ok bool) {
	for {
		kb := drbg.generate()
		var k secp256k1.ModNScalar
		if overflow := k.SetBytes(&kb); overflow != 0 || k.IsZero() || k.Equals(&one) || k.Equals(&nMinus1) {
			continue
		}
		var kG secp256k1.JacobianPoint
		secp256k1.ScalarBaseMultNonConst(&k, &kG)
		kG.ToAffine()
		var r secp256k1.ModNScalar
		overflow := r.SetBytes(kG.X.Bytes())
		if r.IsZero() {
			continue
		}
		r.PutBytesUnchecked(sig[1:33])
		// s is made low below, which keeps its top bit clear: check r
		// before paying for s.
		if !canonicalHalf(sig[1:33]) {
			return sig, false
		}
		recid := byte(kG.Y.IsOddBit()) | byte(overflow<<1)
		kinv := new(secp256k1.ModNScalar).InverseValNonConst(&k)
		s := new(secp256k1.ModNScalar).Mul2(d, &r).Add(e).Mul(kinv)
		if s.IsZero() {
			continue
		}
		if s.IsOverHalfOrder() {
			s.Negate()
			recid ^= 1
		}
		sig[0] = 27 + 4 + recid
		s.PutBytesUnchecked(sig[33:65])
		return sig, canonicalHalf(sig[33:65])
	}
}

// isCanonicalK1 is the EOSIO "canonical" test (fc's is_canonical), which
// signers still apply so that older nodes accept the signature.
func isCanonicalK1(r, s []byte) bool { return canonicalHalf(r) && canonicalHalf(s) }

// canonicalHalf: as a DER integer the 32 bytes need neither a sign-padding
// byte nor have a redundant leading zero.
func canonicalHalf(b []byte) bool { return b[0]&0x80 == 0 && (b[0] != 0 || b[1]&0x80 != 0) }

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
