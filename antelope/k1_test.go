package antelope

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// signingVectors is testdata/signing-vectors.json, copied from
// shared/testdata/chain-responses: published K1 vectors, each with its source.
type signingVectors struct {
	TransactionSignatures []struct {
		ID         string `json:"id"`
		ChainID    string `json:"chain_id"`
		PrivateKey []struct {
			WIF       string `json:"wif"`
			PublicKey string `json:"public_key_legacy"`
		} `json:"private_keys_in_signature_order"`
		Compression           int      `json:"compression"`
		PackedContextFreeData string   `json:"packed_context_free_data"`
		PackedTrx             string   `json:"packed_trx"`
		Signatures            []string `json:"signatures"`
		TransactionID         string   `json:"transaction_id"`
	} `json:"transaction_signatures"`
	MessageSignatures []struct {
		WIF       string `json:"private_key_wif"`
		PublicKey string `json:"public_key_legacy"`
		Message   string `json:"message_utf8"`
		Signature string `json:"signature"`
	} `json:"message_signatures"`
	SignatureRecovery []struct {
		ChainID     string   `json:"chain_id"`
		Transaction string   `json:"serialized_transaction"`
		Signature   string   `json:"signature"`
		KeyParts    []string `json:"expected_public_key_parts"`
	} `json:"signature_recovery"`
	TransactionIDs []struct {
		PackedJSON string `json:"packed_transaction_json"`
		ExpectedID string `json:"expected_transaction_id"`
		WrongID    string `json:"wrong_transaction_id_hashing_raw_bytes"`
	} `json:"transaction_ids"`
	Keys []struct {
		ID          string   `json:"id"`
		WIF         string   `json:"private_key_wif"`
		PVT         string   `json:"private_key_pvt"`
		AlsoPVT     string   `json:"also_as_pvt"`
		Private     string   `json:"private_key"` // R1
		Hex         string   `json:"private_key_hex"`
		PublicKey   string   `json:"public_key"`
		PublicLegcy string   `json:"public_key_legacy"`
		Invalid     []string `json:"invalid_checksum_variants"`
	} `json:"keys"`
}

func loadSigningVectors(t testing.TB) signingVectors {
	t.Helper()
	data, err := os.ReadFile("testdata/signing-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v signingVectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustChecksum(t testing.TB, s string) Checksum256 {
	var c Checksum256
	copy(c[:], mustHex(s))
	return c
}

func mustKey(t testing.TB, s string) PrivateKey {
	t.Helper()
	k, err := ParsePrivateKey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustPub(t testing.TB, k PrivateKey) PublicKey {
	t.Helper()
	p, err := k.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKeyVectors(t *testing.T) {
	for _, v := range loadSigningVectors(t).Keys {
		t.Run(v.ID, func(t *testing.T) {
			var forms []string
			for _, s := range []string{v.WIF, v.PVT, v.AlsoPVT, v.Private} {
				if s != "" {
					forms = append(forms, s)
				}
			}
			for _, text := range forms {
				k := mustKey(t, text)
				if v.Hex != "" {
					if s := k.RevealBytes(); hex.EncodeToString(s[:]) != strings.ToLower(v.Hex) {
						t.Errorf("%s: secret %x, want %s", text, s, v.Hex)
					}
				}
				if strings.HasPrefix(text, "PVT_") && k.RevealString() != text {
					t.Errorf("RevealString() = %s, want %s", k.RevealString(), text)
				}
				if strings.HasPrefix(text, "5") {
					if w, err := k.RevealWIF(); err != nil || w != text {
						t.Errorf("RevealWIF() = %s, %v, want %s", w, err, text)
					}
				}
				pub := mustPub(t, k)
				// A derived key prints exactly as the same key parsed from
				// either of its text forms prints.
				for _, want := range []string{v.PublicKey, v.PublicLegcy} {
					if want == "" {
						continue
					}
					parsed, err := ParsePublicKey(want)
					if err != nil {
						t.Fatal(err)
					}
					if !pub.Equal(parsed) || pub.String() != parsed.String() {
						t.Errorf("%s: derived %s, want %s (%s)", text, pub, want, parsed)
					}
				}
			}
			for _, bad := range v.Invalid {
				_, err := ParsePrivateKey(bad)
				if err == nil {
					t.Errorf("ParsePrivateKey(%s) accepted a bad checksum", bad)
				} else if strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), bad[7:20]) {
					t.Errorf("the error quotes the secret: %v", err)
				}
			}
		})
	}
}

func TestTransactionSignatureVectors(t *testing.T) {
	for _, v := range loadSigningVectors(t).TransactionSignatures {
		t.Run(v.ID, func(t *testing.T) {
			p := &PackedTransaction{
				Compression:           Compression(v.Compression),
				PackedContextFreeData: mustHex(v.PackedContextFreeData),
				PackedTrx:             mustHex(v.PackedTrx),
			}
			chainID := mustChecksum(t, v.ChainID)
			digest, err := p.SigningDigest(chainID)
			if err != nil {
				t.Fatal(err)
			}
			if v.TransactionID != "" {
				id, err := p.ID()
				if err != nil || id.String() != v.TransactionID {
					t.Errorf("ID() = %s, %v, want %s", id, err, v.TransactionID)
				}
			}
			if len(v.PrivateKey) != len(v.Signatures) {
				t.Fatalf("%d keys for %d signatures", len(v.PrivateKey), len(v.Signatures))
			}
			for i, k := range v.PrivateKey {
				key := mustKey(t, k.WIF)
				sig, err := key.SignDigest(digest)
				if err != nil {
					t.Fatal(err)
				}
				if sig.String() != v.Signatures[i] {
					t.Errorf("signature %d = %s, want %s", i, sig, v.Signatures[i])
				}
				want, _ := ParseSignature(v.Signatures[i])
				got, err := want.RecoverPublicKey(digest)
				if err != nil || got.String() != k.PublicKey {
					t.Errorf("recovered %s, %v, want %s", got, err, k.PublicKey)
				}
				if pub, _ := ParsePublicKey(k.PublicKey); !pub.Verify(digest, want) {
					t.Errorf("Verify refused the recorded signature")
				}
			}
			// Signing through the Signer interface gives the same bytes.
			st, err := p.Unpack()
			if err != nil {
				t.Fatal(err)
			}
			d2, err := st.SigningDigest(chainID)
			if err != nil || d2 != digest {
				t.Fatalf("SignedTransaction.SigningDigest = %s, %v, want %s", d2, err, digest)
			}
		})
	}
}

func TestMessageSignatureVectors(t *testing.T) {
	for _, v := range loadSigningVectors(t).MessageSignatures {
		digest := Checksum256(sha256.Sum256([]byte(v.Message)))
		sig, err := ParseSignature(v.Signature)
		if err != nil {
			t.Fatal(err)
		}
		// swift-eosio signs with plain RFC 6979, not wharfkit's
		// personalized nonce: the signature differs, but it recovers and
		// verifies.
		pub, err := sig.RecoverPublicKey(digest)
		if err != nil || pub.String() != v.PublicKey {
			t.Errorf("recovered %s, %v, want %s", pub, err, v.PublicKey)
		}
		own, err := mustKey(t, v.WIF).SignDigest(digest)
		if err != nil {
			t.Fatal(err)
		}
		if !pub.Verify(digest, own) || !pub.Verify(digest, sig) {
			t.Error("Verify refused a signature of the key")
		}
		if pub.Verify(Checksum256{1}, own) {
			t.Error("Verify accepted a signature of another digest")
		}
	}
}

func TestSignatureRecoveryVectors(t *testing.T) {
	for _, v := range loadSigningVectors(t).SignatureRecovery {
		digest := SigningDigest(mustChecksum(t, v.ChainID), mustHex(v.Transaction), Checksum256{})
		sig, err := ParseSignature(v.Signature)
		if err != nil {
			t.Fatal(err)
		}
		pub, err := sig.RecoverPublicKey(digest)
		if want := strings.Join(v.KeyParts, ""); err != nil || pub.String() != want {
			t.Errorf("recovered %s, %v, want %s", pub, err, want)
		}
	}
}

func TestTransactionIDVectors(t *testing.T) {
	for _, v := range loadSigningVectors(t).TransactionIDs {
		var p PackedTransaction
		if err := p.UnmarshalJSON([]byte(v.PackedJSON)); err != nil {
			t.Fatal(err)
		}
		id, err := p.ID()
		if err != nil || id.String() != v.ExpectedID {
			t.Errorf("ID() = %s, %v, want %s (not %s)", id, err, v.ExpectedID, v.WrongID)
		}
	}
}
