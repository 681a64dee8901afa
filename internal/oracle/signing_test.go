package oracle

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// The signing vectors (signing.js): made by @wharfkit/antelope, checked
// against eosjs there, and reproduced here byte for byte by antelope.

// keysVectors is the path of a file of the signing oracle's vectors.
func keysVectors(name string) string {
	return filepath.Join("..", "..", "testdata", "oracle", "keys", name)
}

func checksum(t *testing.T, s string) antelope.Checksum256 {
	t.Helper()
	var c antelope.Checksum256
	if err := c.UnmarshalJSON([]byte(`"` + s + `"`)); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSigningVectors(t *testing.T) {
	var file struct {
		Signatures []struct {
			PrivateKey      string `json:"private_key"`
			WIF             string `json:"wif"`
			Digest          string `json:"digest"`
			PublicKey       string `json:"public_key"`
			PublicKeyLegacy string `json:"public_key_legacy"`
			Signature       string `json:"signature"`
			Recovered       string `json:"recovered"`
		} `json:"signatures"`
	}
	readGzipJSON(t, keysVectors("signing.json.gz"), &file)
	if len(file.Signatures) < 2000 {
		t.Fatalf("%d signature vectors, want at least 2000", len(file.Signatures))
	}
	for i, v := range file.Signatures {
		k, err := antelope.ParsePrivateKey(v.PrivateKey)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		kw, err := antelope.ParsePrivateKey(v.WIF)
		if err != nil || !kw.Equal(k) {
			t.Fatalf("%d: WIF and PVT_K1 differ: %v", i, err)
		}
		if w, _ := k.RevealWIF(); w != v.WIF || k.RevealString() != v.PrivateKey {
			t.Errorf("%d: key prints %s / %s", i, k.RevealString(), w)
		}
		pub, err := k.PublicKey()
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if pub.String() != v.PublicKeyLegacy {
			t.Errorf("%d: public key %s, want %s", i, pub, v.PublicKeyLegacy)
		}
		parsed, err := antelope.ParsePublicKey(v.PublicKey)
		if err != nil || !parsed.Equal(pub) {
			t.Errorf("%d: %s is not %s: %v", i, v.PublicKey, pub, err)
		}
		digest := checksum(t, v.Digest)
		sig, err := k.SignDigest(digest)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if sig.String() != v.Signature {
			t.Errorf("%d: key %s digest %s: signature\n got %s\nwant %s", i, pub, v.Digest, sig, v.Signature)
			continue
		}
		rec, err := sig.RecoverPublicKey(digest)
		if err != nil || rec.String() != v.Recovered {
			t.Errorf("%d: recovered %s, %v; want %s", i, rec, err, v.Recovered)
		}
		if !pub.Verify(digest, sig) {
			t.Errorf("%d: Verify refused", i)
		}
	}
	t.Logf("signing oracle: %d K1 signatures byte-identical with @wharfkit/antelope and eosjs", len(file.Signatures))
}

func TestTransactionVectors(t *testing.T) {
	var file struct {
		Transactions []struct {
			ChainID         string          `json:"chain_id"`
			JSON            json.RawMessage `json:"json"`
			Packed          string          `json:"packed"`
			ID              string          `json:"id"`
			SigningDigest   string          `json:"signing_digest"`
			ContextFreeData []string        `json:"context_free_data"`
			PrivateKey      string          `json:"private_key"`
			Signature       string          `json:"signature"`
			Zlib            json.RawMessage `json:"zlib"`
		} `json:"transactions"`
	}
	readGzipJSON(t, keysVectors("transactions.json.gz"), &file)
	if len(file.Transactions) < 500 {
		t.Fatalf("%d transaction vectors, want at least 500", len(file.Transactions))
	}
	withCFD := 0
	for i, v := range file.Transactions {
		var tx antelope.Transaction
		if err := tx.UnmarshalJSON(v.JSON); err != nil {
			t.Fatalf("%d: %v\n%s", i, err, v.JSON)
		}
		packed, err := tx.MarshalBinary()
		if err != nil || hex.EncodeToString(packed) != v.Packed {
			t.Errorf("%d: packed\n got %x, %v\nwant %s", i, packed, err, v.Packed)
			continue
		}
		if id, err := tx.ID(); err != nil || id.String() != v.ID {
			t.Errorf("%d: id %s, %v; want %s", i, id, err, v.ID)
		}
		st := antelope.SignedTransaction{Transaction: tx}
		for _, d := range v.ContextFreeData {
			b, _ := hex.DecodeString(d)
			st.ContextFreeData = append(st.ContextFreeData, b)
		}
		if len(st.ContextFreeData) > 0 {
			withCFD++
		}
		chainID := checksum(t, v.ChainID)
		digest, err := st.SigningDigest(chainID)
		if err != nil || digest.String() != v.SigningDigest {
			t.Errorf("%d: digest %s, %v; want %s", i, digest, err, v.SigningDigest)
		}
		key, _ := antelope.ParsePrivateKey(v.PrivateKey)
		req, err := antelope.NewSigningRequest(chainID, &tx, st.ContextFreeData, nil)
		if err != nil {
			t.Fatal(err)
		}
		sigs, err := key.Sign(t.Context(), req)
		if err != nil || len(sigs) != 1 || sigs[0].String() != v.Signature {
			t.Errorf("%d: Sign = %v, %v; want %s", i, sigs, err, v.Signature)
		}
		// wharfkit's zlib form unpacks to the same transaction, and ours
		// round-trips too.
		var zp antelope.PackedTransaction
		if err := zp.UnmarshalJSON(v.Zlib); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		back, err := zp.Unpack()
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if got, _ := back.Transaction.MarshalBinary(); !bytes.Equal(got, packed) {
			t.Errorf("%d: wharfkit's zlib form unpacks to %x", i, got)
		}
		if len(back.ContextFreeData) != len(st.ContextFreeData) || len(back.Signatures) != 1 || back.Signatures[0].String() != v.Signature {
			t.Errorf("%d: unpacked cfd %x, signatures %v", i, back.ContextFreeData, back.Signatures)
		}
		if zd, err := zp.SigningDigest(chainID); err != nil || zd != digest {
			t.Errorf("%d: zlib form's digest %s, %v", i, zd, err)
		}
		st.Signatures = sigs
		ours, err := st.Pack(antelope.CompressionZlib)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := ours.Unpack(); err != nil {
			t.Fatal(err)
		} else if got, _ := again.MarshalBinary(); !bytes.Equal(got, mustMarshal(t, &st)) {
			t.Errorf("%d: our zlib round trip differs", i)
		}
	}
	t.Logf("transaction oracle: %d transactions (%d with context-free data): packed bytes, ids, signing digests, signatures and zlib forms equal @wharfkit/antelope's and eosjs's", len(file.Transactions), withCFD)
}

func mustMarshal(t *testing.T, st *antelope.SignedTransaction) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
