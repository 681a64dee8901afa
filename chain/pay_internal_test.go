package chain

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

func TestMergeSignaturesNodeosOrder(t *testing.T) {
	digest := antelope.Checksum256{1, 2, 3}
	var sigs []antelope.Signature
	for range 6 {
		k, _ := antelope.GeneratePrivateKey(nil)
		s, err := k.SignDigest(digest)
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, s)
	}
	broken := antelope.Signature{Type: antelope.KeyType(1), Data: make([]byte, 65)} // R1 that recovers nothing
	want := mergeSignatures(digest, sigs)
	if len(want) != len(sigs) {
		t.Fatalf("%d signatures, want %d", len(want), len(sigs))
	}
	var prev antelope.PublicKey
	for i, s := range want {
		k, _ := s.RecoverPublicKey(digest)
		if i > 0 && bytes.Compare(prev.Data, k.Data) >= 0 {
			t.Errorf("signature %d out of key order", i)
		}
		prev = k
	}
	// Whoever signed first, and with repeats, the same list; an
	// unrecoverable signature stays, last.
	got := mergeSignatures(digest, sigs[3:], []antelope.Signature{broken}, sigs[:4], sigs)
	if !slices.EqualFunc(got[:len(want)], want, func(a, b antelope.Signature) bool { return a.String() == b.String() }) ||
		len(got) != len(want)+1 || got[len(got)-1].String() != broken.String() {
		t.Errorf("merged %v, want %v then the broken one", got, want)
	}
}

func TestResourceErrorOnlyForTheAccount(t *testing.T) {
	tx := &antelope.Transaction{Actions: []antelope.Action{
		{Account: antelope.MustName("eosio.null"), Name: antelope.MustName("nonce")}, // no authorization: not the billed one
		{Account: antelope.MustName("eosio.token"), Name: nameTransfer, Authorization: []antelope.PermissionLevel{antelope.Active(antelope.MustName("alice")), antelope.Active(antelope.MustName("bob"))}},
	}}
	account := func(detail string) *APIError {
		return &APIError{Name: "tx_cpu_usage_exceeded", Details: []ErrorDetail{{Message: detail}}}
	}
	var re *ResourceError
	if err := resourceError(tx, account("billed CPU time (100 us) is greater than the maximum billable CPU time for the transaction (0 us) reached account cpu limit 0us")); !errors.As(err, &re) ||
		re.Account != antelope.MustName("alice") || re.Resource != "CPU" || !errors.Is(err, ErrCPU) {
		t.Errorf("%v", err)
	}
	if err := resourceError(tx, &APIError{Name: "tx_net_usage_exceeded"}); !errors.As(err, &re) || re.Resource != "NET" || !errors.Is(err, ErrNET) {
		t.Errorf("%v", err)
	}
	// What no resources cure stays as nodeos said it.
	for _, err := range []error{
		account("transaction 1 was executing for too long 30001us reached node configured max-transaction-time 30000us"),
		account("billed CPU time (200000 us) is greater than the maximum billable CPU time for the transaction (150000 us) reached on chain max_transaction_cpu_usage 150000us"),
		&APIError{Name: "block_cpu_usage_exceeded"}, &APIError{Name: "deadline_exception"}, &APIError{Name: "block_net_usage_exceeded"},
		&APIError{Name: "eosio_assert_message_exception"}, &UnknownOutcomeError{Err: &APIError{Name: "tx_cpu_usage_exceeded"}},
	} {
		if got := resourceError(tx, err); got != err {
			t.Errorf("%v became %v", err, got)
		}
	}
	if resourceError(tx, nil) != nil {
		t.Error("nil became an error")
	}
}

func TestKnownNoop(t *testing.T) {
	for id, want := range map[antelope.Checksum256]string{chainWAX: "boost.wax", chainEOS: "greymassnoop", chainJungle4: "greymassnoop", chainTelos: "greymassnoop"} {
		if c, a, ok := KnownNoop(id); !ok || c != antelope.MustName(want) || a != nameNoop {
			t.Errorf("%s: %s::%s %v", id, c, a, ok)
		}
	}
	if _, _, ok := KnownNoop(antelope.Checksum256{}); ok {
		t.Error("a noop for an unknown chain")
	}
}

// A Cosigner's NoopAction is kept when only its NoopContract is left to
// the chain's known one (it was replaced by "noop").
func TestCosignerNoopActionKept(t *testing.T) {
	key, _ := antelope.GeneratePrivateKey(nil)
	payer := antelope.PermissionLevel{Actor: antelope.MustName("dapp"), Permission: antelope.MustName("paybw")}
	tx := &antelope.Transaction{Actions: []antelope.Action{{Account: antelope.MustName("eosio.token"), Name: nameTransfer,
		Authorization: []antelope.PermissionLevel{antelope.Active(antelope.MustName("alice"))}, Data: []byte{}}}}
	for _, tc := range []struct {
		action, want antelope.Name
	}{{0, nameNoop}, {antelope.MustName("payfor"), antelope.MustName("payfor")}} {
		cos := &Cosigner{Permission: payer, Signer: key, NoopAction: tc.action}
		pay, err := cos.Pay(t.Context(), New("http://127.0.0.1:1"), &PayRequest{ChainID: chainWAX, Transaction: tx})
		if err != nil {
			t.Fatal(err)
		}
		if first := pay.Transaction.Actions[0]; first.Account != antelope.MustName("boost.wax") || first.Name != tc.want {
			t.Errorf("NoopAction %s: the noop is %s::%s, want boost.wax::%s", tc.action, first.Account, first.Name, tc.want)
		}
	}
}
