package wasm

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"github.com/antelopego/abigen/antelope"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	//lint:ignore SA1019 nodeos's ripemd160 intrinsics are RIPEMD-160; there is no choice to make
	"golang.org/x/crypto/ripemd160"
	"golang.org/x/crypto/sha3"
)

func defineCrypto() {
	hashes := []struct {
		name string
		new  func() hash.Hash
	}{{"sha1", sha1.New}, {"sha256", sha256.New}, {"sha512", sha512.New}, {"ripemd160", ripemd160.New}}
	for _, h := range hashes {
		def(h.name, "iii", "", func(c *call, s []uint64) {
			w := h.new()
			w.Write(c.view(argI32(s, 0), argI32(s, 1)))
			c.write(argI32(s, 2), w.Sum(nil))
		})
		def("assert_"+h.name, "iii", "", func(c *call, s []uint64) {
			w := h.new()
			w.Write(c.view(argI32(s, 0), argI32(s, 1)))
			sum := w.Sum(nil)
			if !bytes.Equal(sum, c.view(argI32(s, 2), uint32(len(sum)))) {
				raise(errCrypto("hash mismatch"))
			}
		})
	}
	def("recover_key", "iiiii", "i", func(c *call, s []uint64) {
		pub := recoverKey(c, argI32(s, 0), argI32(s, 1), argI32(s, 2))
		packed, _ := pub.MarshalBinary()
		if uint32(len(packed)) > argI32(s, 4) {
			raise(errExecution("recover_key: the destination buffer cannot hold the public key"))
		}
		c.write(argI32(s, 3), packed)
		retI32(s, int32(len(packed)))
	})
	def("assert_recover_key", "iiiii", "", func(c *call, s []uint64) {
		pub := recoverKey(c, argI32(s, 0), argI32(s, 1), argI32(s, 2))
		var want antelope.PublicKey
		if err := want.DecodeBinary(antelope.NewDecoder(c.view(argI32(s, 3), argI32(s, 4)))); err != nil {
			raise(errCrypto("unpacking the public key: " + err.Error()))
		}
		if !want.Equal(pub) {
			raise(errCrypto("Error expected key different than recovered key"))
		}
	})
	def("sha3", "iiiii", "", func(c *call, s []uint64) {
		var w hash.Hash
		if argI32(s, 4) == 1 {
			w = sha3.NewLegacyKeccak256()
		} else {
			w = sha3.New256()
		}
		w.Write(c.view(argI32(s, 0), argI32(s, 1)))
		sum := w.Sum(nil)
		c.write(argI32(s, 2), sum[:min(len(sum), int(argI32(s, 3)))])
	})
	def("k1_recover", "iiiiii", "i", func(c *call, s []uint64) {
		sig, digest := c.view(argI32(s, 0), argI32(s, 1)), c.view(argI32(s, 2), argI32(s, 3))
		if len(sig) != 65 || len(digest) != 32 || argI32(s, 5) < 65 {
			retI32(s, -1)
			return
		}
		pub, _, err := ecdsa.RecoverCompact(sig, digest)
		if err != nil {
			retI32(s, -1)
			return
		}
		c.write(argI32(s, 4), pub.SerializeUncompressed())
		retI32(s, 0)
	})
	def("alt_bn128_add", "iiiiii", "i", nil)
	def("alt_bn128_mul", "iiiiii", "i", nil)
	def("alt_bn128_pair", "ii", "i", nil)
	def("mod_exp", "iiiiiiii", "i", nil)
	def("blake2_f", "iiiiiiiiiiii", "i", nil)
	def("bls_g1_add", "iiiiii", "i", nil)
	def("bls_g2_add", "iiiiii", "i", nil)
	def("bls_g1_weighted_sum", "iiiiiii", "i", nil)
	def("bls_g2_weighted_sum", "iiiiiii", "i", nil)
	def("bls_pairing", "iiiiiii", "i", nil)
	def("bls_g1_map", "iiii", "i", nil)
	def("bls_g2_map", "iiii", "i", nil)
	def("bls_fp_mod", "iiii", "i", nil)
	def("bls_fp_mul", "iiiiii", "i", nil)
	def("bls_fp_exp", "iiiiii", "i", nil)
}

// recoverKey recovers the key of a packed signature over the sha256 at
// digestPtr.
func recoverKey(c *call, digestPtr, sigPtr, sigLen uint32) antelope.PublicKey {
	var digest antelope.Checksum256
	copy(digest[:], c.view(digestPtr, 32))
	var sig antelope.Signature
	if err := sig.DecodeBinary(antelope.NewDecoder(c.view(sigPtr, sigLen))); err != nil {
		raise(errCrypto("unpacking the signature: " + err.Error()))
	}
	pub, err := sig.RecoverPublicKey(digest)
	if err != nil {
		raise(errCrypto(err.Error()))
	}
	return pub
}
