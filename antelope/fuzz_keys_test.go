package antelope

import (
	"bytes"
	"strings"
	"testing"
)

// Fuzz targets for keys, signatures and transactions.

// FuzzParseKeys: no panic on any text; a public key parses the same
// through the parse cache as without it; what parses prints a text form
// that parses to the same key; a private key's error never quotes the input.
func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{
		"5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zFu",
		"PVT_K1_2be6BwD56MHeVD4P95bRLdnP3oB3P4QRAXAsSKh4N8Xu6d4Aux",
		"PVT_R1_iyQmnyPEGvFd8uffnk152WC2WryBjgTrg22fXQryuGL9mU6qW",
		"PUB_K1_6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeACcSRFs",
		"EOS6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeABhJRin",
		"PUB_R1_6EPHFSKVYHBjQgxVGQPrwCxTg7BbZ69H9i4gztN9deKTEXYne4",
		"SIG_K1_KiwjSKNiWmRhReYjUr3G38WFh18FmEX9EGophQDsaFdHHMR9wPBaRQaaN1T3E7pW1ykyoNjwr9SyxUpGPjLE2EjJTS1gaB",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if k, err := ParsePrivateKey(s); err == nil {
			back, err := ParsePrivateKey(k.RevealString())
			if err != nil || !back.Equal(k) {
				t.Fatalf("%q: private key text round trip: %v", s, err)
			}
			_, _ = k.PublicKey()
			_ = k.String()
		} else if len(s) >= 12 && strings.Contains(err.Error(), s) {
			t.Fatalf("error quotes the private key input: %v", err)
		}
		// The cached parse (the second, a hit) agrees with the uncached one.
		for range 2 {
			p, err := ParsePublicKey(s)
			want, wantErr := parsePublicKeyText([]byte(s))
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() ||
				p.Type != want.Type || !bytes.Equal(p.Data, want.Data) {
				t.Fatalf("%q: cached parse %v, %v; uncached %v, %v", s, p, err, want, wantErr)
			}
		}
		if p, err := ParsePublicKey(s); err == nil {
			back, err := ParsePublicKey(p.String())
			if err != nil || !back.Equal(p) {
				t.Fatalf("%q: public key round trip: %v", s, err)
			}
		}
		if sig, err := ParseSignature(s); err == nil {
			back, err := ParseSignature(sig.String())
			if err != nil || back.Type != sig.Type || !bytes.Equal(back.Data, sig.Data) {
				t.Fatalf("%q: signature round trip: %v", s, err)
			}
			_, _ = sig.RecoverPublicKey(Checksum256{})
		}
	})
}

// FuzzRecover: recovery from arbitrary 65 bytes and digests never panics,
// and a recovered key verifies the signature it came from.
func FuzzRecover(f *testing.F) {
	sig, _ := ParseSignature("SIG_K1_KiwjSKNiWmRhReYjUr3G38WFh18FmEX9EGophQDsaFdHHMR9wPBaRQaaN1T3E7pW1ykyoNjwr9SyxUpGPjLE2EjJTS1gaB")
	f.Add(sig.Data, make([]byte, 32))
	f.Add(make([]byte, 65), make([]byte, 32))
	f.Fuzz(func(t *testing.T, data, digest []byte) {
		if len(data) != 65 || len(digest) != 32 {
			return
		}
		s := Signature{Type: KeyK1, Data: data}
		d := Checksum256(digest)
		pub, err := s.RecoverPublicKey(d)
		if err != nil {
			return
		}
		if !pub.Verify(d, s) {
			t.Fatalf("recovered %s does not verify", pub)
		}
	})
}

// FuzzSignRecover: any valid secret signs any digest with a canonical
// signature that recovers to its public key.
func FuzzSignRecover(f *testing.F) {
	f.Add(mustHex("d25968ebfce6e617bdb839b5a66cfc1fdd051d79a91094f7baceded449f84333"), make([]byte, 32))
	f.Fuzz(func(t *testing.T, secret, digest []byte) {
		if len(secret) != 32 || len(digest) != 32 {
			return
		}
		k, _ := NewPrivateKey(KeyK1, [32]byte(secret))
		pub, err := k.PublicKey()
		if err != nil {
			return // 0 or ≥ n
		}
		d := Checksum256(digest)
		sig, err := k.SignDigest(d)
		if err != nil {
			t.Fatal(err)
		}
		if !isCanonicalK1(sig.Data[1:33], sig.Data[33:65]) {
			t.Fatalf("not canonical: %s", sig)
		}
		got, err := sig.RecoverPublicKey(d)
		if err != nil || !got.Equal(pub) {
			t.Fatalf("recovered %s, %v; want %s", got, err, pub)
		}
	})
}

// FuzzDecodeTransaction: transactions, signed transactions and packed
// transactions decode without panic, re-encode to the same bytes, and a
// packed payload never inflates past MaxInflatedSize.
func FuzzDecodeTransaction(f *testing.F) {
	for _, v := range loadSigningVectors(f).TransactionSignatures {
		trx := mustHex(v.PackedTrx)
		f.Add(uint8(0), trx)
		p := PackedTransaction{Compression: Compression(v.Compression), PackedContextFreeData: mustHex(v.PackedContextFreeData), PackedTrx: trx}
		b, _ := p.MarshalBinary()
		f.Add(uint8(2), b)
	}
	st, _ := testTransaction().MarshalBinary()
	f.Add(uint8(1), st)
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		var v interface {
			BinaryDecodable
			BinaryAppender
		}
		switch sel % 3 {
		case 0:
			v = &Transaction{}
		case 1:
			v = &SignedTransaction{}
		default:
			v = &PackedTransaction{}
		}
		if err := UnmarshalBinary(data, v); err != nil {
			return
		}
		again, err := v.AppendBinary(nil)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%T: %x re-encodes to %x, %v", v, data, again, err)
		}
		if p, ok := v.(*PackedTransaction); ok {
			if raw, err := p.TransactionBytes(); err == nil && len(raw) > MaxInflatedSize {
				t.Fatalf("inflated %d bytes", len(raw))
			}
			_, _ = p.Unpack()
			_, _ = p.ID()
		}
		if js, err := v.(interface{ MarshalJSON() ([]byte, error) }).MarshalJSON(); err != nil {
			t.Fatalf("%T: JSON: %v", v, err)
		} else {
			w := v.(interface{ UnmarshalJSON([]byte) error })
			if err := w.UnmarshalJSON(js); err != nil {
				t.Fatalf("%T: own JSON %s rejected: %v", v, js, err)
			}
			if back, _ := v.AppendBinary(nil); !bytes.Equal(back, data) {
				t.Fatalf("%T: JSON round trip %x → %x", v, data, back)
			}
		}
	})
}
