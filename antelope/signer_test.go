package antelope

import (
	"bytes"
	"testing"
)

// A PrivateKeys holding one key twice (two accounts sharing a key) lists it
// once and signs once: nodeos refuses a second signature by the same key
// (tx_duplicate_sig).
func TestPrivateKeysRepeatedKey(t *testing.T) {
	a, err := GeneratePrivateKey(bytes.NewReader(bytes.Repeat([]byte{1}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := GeneratePrivateKey(bytes.NewReader(bytes.Repeat([]byte{2}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	ks := PrivateKeys{a, b, a, b, a}
	pubs, err := ks.PublicKeys(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(pubs) != 2 || !pubs[0].Equal(mustPub(t, a)) || !pubs[1].Equal(mustPub(t, b)) {
		t.Errorf("public keys %v", pubs)
	}
	tx := &Transaction{Actions: []Action{}, ContextFreeActions: []Action{}, Extensions: []Extension{}}
	for _, want := range [][]PublicKey{nil, {mustPub(t, a)}, pubs} {
		req, err := NewSigningRequest(Checksum256{1}, tx, nil, want)
		if err != nil {
			t.Fatal(err)
		}
		sigs, err := ks.Sign(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		n := len(want)
		if n == 0 {
			n = 2
		}
		if len(sigs) != n {
			t.Errorf("keys %v: %d signatures, want %d", want, len(sigs), n)
		}
	}
}
