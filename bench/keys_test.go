package bench

import (
	"crypto/sha256"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/eoscanada/eos-go/ecc"
)

// Signing and recovery: abigen's antelope against decred's own compact
// signing (the floor: one RFC 6979 attempt, no canonical loop) and eos-go's
// signer. Each benchmark cycles through the same 1,024 digests, so the
// canonical retry loop's average cost is in the numbers.

const benchWIF = "5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zFu"

func benchDigests() [][32]byte {
	out := make([][32]byte, 1024)
	for i := range out {
		out[i] = sha256.Sum256([]byte{byte(i), byte(i >> 8)})
	}
	return out
}

func BenchmarkSign(b *testing.B) {
	digests := benchDigests()
	key, err := antelope.ParsePrivateKey(benchWIF)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("K1/abigen", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := key.SignDigest(digests[i%len(digests)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	secret := key.RevealBytes()
	dk := secp256k1.PrivKeyFromBytes(secret[:])
	b.Run("K1/decred", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			d := digests[i%len(digests)]
			_ = ecdsa.SignCompact(dk, d[:], true)
		}
	})
	ek, err := ecc.NewPrivateKey(benchWIF)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("K1/eosgo", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			d := digests[i%len(digests)]
			if _, err := ek.Sign(d[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkRecover(b *testing.B) {
	digests := benchDigests()
	key, _ := antelope.ParsePrivateKey(benchWIF)
	sigs := make([]antelope.Signature, len(digests))
	eosSigs := make([]ecc.Signature, len(digests))
	for i, d := range digests {
		s, err := key.SignDigest(d)
		if err != nil {
			b.Fatal(err)
		}
		sigs[i] = s
		if eosSigs[i], err = ecc.NewSignature(s.String()); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("K1/abigen", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := sigs[i%len(sigs)].RecoverPublicKey(digests[i%len(digests)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("K1/decred", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			d := digests[i%len(digests)]
			if _, _, err := ecdsa.RecoverCompact(sigs[i%len(sigs)].Data, d[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("K1/eosgo", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			d := digests[i%len(digests)]
			if _, err := eosSigs[i%len(eosSigs)].PublicKey(d[:]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSignersAgree: eos-go's signature of the bench key recovers to the
// same key as ours, so the benchmarks compare like with like.
func TestSignersAgree(t *testing.T) {
	key, _ := antelope.ParsePrivateKey(benchWIF)
	pub, _ := key.PublicKey()
	ek, _ := ecc.NewPrivateKey(benchWIF)
	for _, d := range benchDigests()[:8] {
		es, err := ek.Sign(d[:])
		if err != nil {
			t.Fatal(err)
		}
		s, err := antelope.ParseSignature(es.String())
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.RecoverPublicKey(d); err != nil || !got.Equal(pub) {
			t.Fatalf("eos-go's signature recovers to %s, %v", got, err)
		}
	}
}
