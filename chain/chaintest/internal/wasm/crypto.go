package wasm

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
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
			sum := hashWithChecktime(c, h.new(), c.view(argI32(s, 0), argI32(s, 1)))
			c.write(argI32(s, 2), sum)
		})
		def("assert_"+h.name, "iii", "", func(c *call, s []uint64) {
			sum := hashWithChecktime(c, h.new(), c.view(argI32(s, 0), argI32(s, 1)))
			if !bytes.Equal(sum, c.view(argI32(s, 2), uint32(len(sum)))) {
				raise(errCrypto("hash mismatch"))
			}
		})
	}
	def("recover_key", "iiiii", "i", func(c *call, s []uint64) {
		pub := recoverKey(c, argI32(s, 0), argI32(s, 1), argI32(s, 2))
		packed, _ := pub.MarshalBinary()
		dst := c.view(argI32(s, 3), argI32(s, 4))
		if pub.Type > antelope.KeyR1 {
			// Variable-size keys: at least an ECC key's room, then as
			// much as fits, and the full size returned.
			if len(dst) < 33 {
				raise(errExecution("destination buffer must at least be able to hold an ECC public key"))
			}
			copy(dst, packed)
			retI32(s, int32(len(packed)))
			return
		}
		// K1 and R1 are packed through fc's datastream over the buffer:
		// the type byte, then the 33-byte point, each write refused
		// whole when it does not fit.
		if len(dst) < len(packed) {
			raise(errDatastreamWrite(dst, packed))
		}
		copy(dst, packed)
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

// errDatastreamWrite is the exception fc's datastream<char*> throws when
// packed (a varuint32 type byte, then the rest in one write) is packed
// into dst, too small for it: the write that does not fit is refused and
// the message is nodeos's, down to its "over by" (one minus the bytes
// that were left, however long the write).
func errDatastreamWrite(dst, packed []byte) *Exception {
	left := len(dst)
	if left >= 1 {
		left-- // the type byte fit
	}
	return newException(8, "out_of_range_exception", "Out of Range",
		fmt.Sprintf("write datastream of length %d over by %d", len(dst), 1-left))
}

// hashChunk is how much nodeos's hash_with_checktime hashes between two
// deadline checks (config::hashing_checktime_block_size).
const hashChunk = 10 * 1024

// hashWithChecktime is nodeos's hash_with_checktime: data hashed a chunk
// at a time with the deadline checked after each chunk but the last, so
// that hashing a large buffer past the deadline fails with
// tx_cpu_usage_exceeded — and an assert_ form fails so before it can
// report a hash mismatch.
func hashWithChecktime(c *call, w hash.Hash, data []byte) []byte {
	for len(data) > hashChunk {
		w.Write(data[:hashChunk])
		data = data[hashChunk:]
		c.checktime()
	}
	w.Write(data)
	return w.Sum(nil)
}
