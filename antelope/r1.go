package antelope

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"math/big"
)

// verifyR1 checks a P-256 signature (recovery byte ‖ r ‖ s) of digest by the
// compressed public key pub, with the standard library's ECDSA.
func verifyR1(pub, digest, sig []byte) bool {
	if len(pub) != 33 || len(sig) != 65 {
		return false
	}
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), pub)
	if x == nil {
		return false
	}
	u := make([]byte, 65)
	u[0] = 4
	x.FillBytes(u[1:33])
	y.FillBytes(u[33:65])
	key, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), u)
	if err != nil {
		return false
	}
	r := new(big.Int).SetBytes(sig[1:33])
	s := new(big.Int).SetBytes(sig[33:65])
	return ecdsa.Verify(key, digest, r, s)
}
