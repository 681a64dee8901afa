package antelope

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestPrivateKeyNeverPrints formats a key every way fmt can reach it and
// checks that neither its text form, its WIF nor its hex appears.
func TestPrivateKeyNeverPrints(t *testing.T) {
	const wif = "5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zFu"
	k := mustKey(t, wif)
	secret := k.RevealBytes()
	forbidden := []string{k.RevealString(), wif, hex.EncodeToString(secret[:]), strings.ToUpper(hex.EncodeToString(secret[:])),
		fmt.Sprint(secret[:]), fmt.Sprint(secret[0:4])[1:12]}

	type exported struct{ Key PrivateKey }
	type unexported struct{ key PrivateKey }
	type pointer struct{ key *PrivateKey }
	values := []any{k, &k, exported{k}, &exported{k}, unexported{k}, pointer{&k}, []PrivateKey{k}, map[string]PrivateKey{"a": k}, PrivateKeys{k}}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T %v"}
	for _, v := range values {
		for _, verb := range verbs {
			out := fmt.Sprintf(verb, v)
			for _, f := range forbidden {
				if strings.Contains(out, f) {
					t.Errorf("fmt.Sprintf(%q, %T) = %s reveals the key", verb, v, out)
				}
			}
		}
	}
	if s := k.String(); !strings.Contains(s, "EOS6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeABhJRin") || !strings.Contains(s, "redacted") {
		t.Errorf("String() = %s, want a redaction naming the public key", s)
	}
	err := fmt.Errorf("signing with %v failed: %w", k, errors.New("x"))
	for _, f := range forbidden {
		if strings.Contains(err.Error(), f) {
			t.Errorf("an error reveals the key: %v", err)
		}
	}
	// The explicit codecs do give the text form: an ABI field holds it.
	j, _ := k.MarshalJSON()
	if string(j) != `"`+k.RevealString()+`"` {
		t.Errorf("MarshalJSON = %s", j)
	}
}

// TestPrivateKeyErrorsDoNotQuote checks that a key that fails to parse is
// not quoted in the error, whatever is wrong with it.
func TestPrivateKeyErrorsDoNotQuote(t *testing.T) {
	good := mustKey(t, "5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zFu").RevealString()
	for _, bad := range []string{
		good[:len(good)-1] + "z",                              // checksum
		"5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zxx", // WIF checksum
		"PVT_XX_" + good[7:],                                  // type
		"PVT_K1_" + good[7:20] + "0OIl",                       // base58
		good[7:],                                              // neither form
	} {
		_, err := ParsePrivateKey(bad)
		if err == nil {
			t.Errorf("accepted %s", bad)
			continue
		}
		if strings.Contains(err.Error(), bad[7:20]) {
			t.Errorf("error quotes the key: %v", err)
		}
		var k PrivateKey
		err = k.UnmarshalJSON([]byte(`"` + bad + `"`))
		if err == nil || strings.Contains(err.Error(), bad[7:20]) {
			t.Errorf("UnmarshalJSON: %v", err)
		}
	}
}

func TestPrivateKeyZeroAndRange(t *testing.T) {
	var zero PrivateKey
	if _, err := zero.PublicKey(); err == nil {
		t.Error("the zero key has a public key")
	}
	if _, err := zero.SignDigest(Checksum256{}); err == nil {
		t.Error("the zero key signed")
	}
	b, err := zero.MarshalBinary()
	if err != nil || len(b) != 33 {
		t.Errorf("zero key binary = %x, %v", b, err)
	}
	var n [32]byte // the curve order: not a key
	copy(n[:], mustHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"))
	k, _ := NewPrivateKey(KeyK1, n)
	if _, err := k.PublicKey(); err == nil {
		t.Error("a secret equal to n has a public key")
	}
	if _, err := NewPrivateKey(KeyWA, n); err == nil {
		t.Error("NewPrivateKey accepted WA")
	}
}

func TestGeneratePrivateKey(t *testing.T) {
	k1, err := GeneratePrivateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := GeneratePrivateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Equal(k2) {
		t.Fatal("two generated keys are equal")
	}
	back := mustKey(t, k1.RevealString())
	if !back.Equal(k1) {
		t.Fatal("a generated key does not survive its text form")
	}
	digest := Checksum256{1, 2, 3}
	sig, err := k1.SignDigest(digest)
	if err != nil {
		t.Fatal(err)
	}
	pub := mustPub(t, k1)
	if !pub.Verify(digest, sig) || mustPub(t, k2).Verify(digest, sig) {
		t.Error("Verify does not tell the two keys apart")
	}
	// Deterministic: the same key and digest, the same signature.
	sig2, _ := k1.SignDigest(digest)
	if sig.String() != sig2.String() {
		t.Error("signing is not deterministic")
	}
	if _, err := GeneratePrivateKey(strings.NewReader("short")); err == nil {
		t.Error("a reader that runs dry made a key")
	}
}

func TestR1(t *testing.T) {
	k := mustKey(t, "PVT_R1_iyQmnyPEGvFd8uffnk152WC2WryBjgTrg22fXQryuGL9mU6qW")
	pub := mustPub(t, k)
	if pub.String() != "PUB_R1_6EPHFSKVYHBjQgxVGQPrwCxTg7BbZ69H9i4gztN9deKTEXYne4" {
		t.Errorf("R1 public key %s", pub)
	}
	if _, err := k.SignDigest(Checksum256{}); err == nil {
		t.Error("R1 signing is out of scope and must say so")
	}
	if pub.Verify(Checksum256{}, Signature{Type: KeyR1, Data: make([]byte, 65)}) {
		t.Error("an all-zero R1 signature verified")
	}
}
