package chaintest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/tablekeys"
)

// A handler that panics is a failed transaction, answered once, its writes
// undone, the same over HTTP and in process; the next transaction works.
func TestHandlerPanic(t *testing.T) {
	t.Run("http", func(t *testing.T) { handlerPanic(t) })
	t.Run("in-process", func(t *testing.T) { handlerPanic(t, chaintest.WithoutNetwork()) })
}

func handlerPanic(t *testing.T, opts ...chaintest.Option) {
	game := antelope.MustName("mygamedapp")
	calls := 0
	c, key := contractChain(t, randcontract.DefaultAccount, randcontract.ABIJSON, func(ctx *chaintest.Context) error {
		calls++
		if err := orngwax(ctx); err != nil {
			return err
		}
		var req randcontract.Requestrand
		if err := ctx.Decode(&req); err != nil {
			return err
		}
		if req.AssocID == 13 {
			panic("unlucky number")
		}
		return nil
	}, game, opts...)
	cl := c.Client()
	send := func(assoc uint64) (*chain.TransactResult, error) {
		act, err := randcontract.Default.Requestrand(randcontract.Requestrand{AssocID: assoc, Caller: game}, antelope.Active(game))
		if err != nil {
			t.Fatal(err)
		}
		return cl.Transact(t.Context(), key, act)
	}
	before := c.Stats()
	_, err := send(13)
	var ae *chain.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("a panicking handler: %v (%T), want a *chain.APIError", err, err)
	}
	if ae.Name != "wasm_execution_error" || ae.Code != 3070002 || !strings.Contains(ae.Error(), "unlucky number") {
		t.Errorf("the exception: %v", ae)
	}
	stack := false
	for _, d := range ae.Details {
		stack = stack || strings.Contains(d.Message, "goroutine") && strings.Contains(d.Message, "failure_test.go")
	}
	if !stack {
		t.Errorf("no stack in the details: %+v", ae.Details)
	}
	if calls != 1 {
		t.Errorf("the handler ran %d times", calls)
	}
	if s := c.Stats(); s.Executions != before.Executions || s.Refused != before.Refused+1 {
		t.Errorf("stats %+v, before %+v", s, before)
	}
	if _, err := randcontract.TableJobsA.Get(t.Context(), cl, randcontract.DefaultAccount, 0); !errors.Is(err, antelope.ErrRowNotFound) {
		t.Errorf("the row written before the panic: %v", err)
	}
	if _, err := send(14); err != nil {
		t.Fatalf("the next transaction: %v", err)
	}
	if job, err := randcontract.TableJobsA.Get(t.Context(), cl, randcontract.DefaultAccount, 0); err != nil || job.AssocID != 14 {
		t.Errorf("the next transaction's row: %+v, %v", job, err)
	}
}

// The chain refuses a transaction signed twice by the same key, as nodeos
// does: tx_duplicate_sig.
func TestDuplicateSignatureRefused(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1)}, antelope.Active(alice))
	tx, chainID, err := cl.BuildTransaction(t.Context(), tr)
	if err != nil {
		t.Fatal(err)
	}
	req, err := antelope.NewSigningRequest(chainID, tx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := keys[alice].Sign(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	signed := &antelope.SignedTransaction{Transaction: *tx, Signatures: append(sig, sig...), ContextFreeData: [][]byte{}}
	_, err = cl.SendTransaction(t.Context(), signed)
	var ae *chain.APIError
	if !errors.As(err, &ae) || ae.Name != "tx_duplicate_sig" || ae.Code != 3090001 {
		t.Fatalf("a duplicate signature: %v", err)
	}
}

// A signer holding alice's key twice (two accounts with one key) signs
// once: the chain accepts the transaction.
func TestSignerWithRepeatedKey(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1)}, antelope.Active(alice))
	res, err := cl.Transact(t.Context(), antelope.PrivateKeys{keys[alice], keys[alice]}, tr)
	if err != nil {
		t.Fatalf("PrivateKeys{k, k}: %v", err)
	}
	if n := len(res.Transaction.Signatures); n != 1 {
		t.Errorf("%d signatures", n)
	}
}

// bothSigners is a Signer combining two, as a program might join a hot
// wallet and a KMS: it lists and signs with both.
type bothSigners [2]antelope.Signer

func (s bothSigners) PublicKeys(ctx context.Context) ([]antelope.PublicKey, error) {
	var out []antelope.PublicKey
	for _, x := range s {
		k, err := x.PublicKeys(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, k...)
	}
	return out, nil
}

func (s bothSigners) Sign(ctx context.Context, req *antelope.SigningRequest) ([]antelope.Signature, error) {
	var out []antelope.Signature
	for _, x := range s {
		sig, err := x.Sign(ctx, req)
		if err != nil {
			return nil, err
		}
		out = append(out, sig...)
	}
	return out, nil
}

// Signatures assembled from several signers holding the same key are sent
// once per key: Transact does not make a transaction nodeos refuses.
func TestSignersSharingAKey(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1)}, antelope.Active(alice))
	res, err := cl.Transact(t.Context(), bothSigners{keys[alice], antelope.PrivateKeys{keys[bob], keys[alice]}}, tr)
	if err != nil {
		t.Fatalf("two signers sharing a key: %v", err)
	}
	if n := len(res.Transaction.Signatures); n != 1 {
		t.Errorf("%d signatures", n)
	}
}

// Secondary keys are checked against the ABI's key_names and key_types:
// a key left out, one too many, or one of another type fails the
// transaction with a message naming the table and the index, and stores
// nothing.
func TestSecondaryKeysCheckedAgainstABI(t *testing.T) {
	exch, orders := antelope.MustName("exchange"), antelope.MustName("orders")
	var keys []antelope.TableKey
	c, key := contractChain(t, exch, tablekeys.ABIJSON, func(ctx *chaintest.Context) error {
		o := tablekeys.Order{ID: 1, Owner: alice, Price: 2.5}
		return ctx.SetValue(ctx.Receiver, orders, o.ID, &o, alice, keys...)
	}, alice)
	cl := c.Client()
	good := []antelope.TableKey{antelope.KeyName(alice), antelope.KeyFloat64(2.5), antelope.KeySHA256(antelope.Checksum256{}),
		antelope.KeyRipemd160(antelope.Checksum160{}), antelope.KeyUint128(antelope.Uint128{})}
	for i, tc := range []struct {
		keys []antelope.TableKey
		want string
	}{
		{good[:4], "table orders of exchange: 4 secondary keys, but its ABI describes 5 (owner name, price float64, hash checksum256, ref checksum160, volume uint128)"},
		{append(append([]antelope.TableKey{}, good...), antelope.KeyUint64(1)), "table orders of exchange: 6 secondary keys, but its ABI describes 5"},
		{append([]antelope.TableKey{antelope.KeyFloat64(1)}, good[1:]...), "table orders of exchange: index owner (position 2) takes name keys, not float64:1"},
		{append([]antelope.TableKey{{}}, good[1:]...), "table orders of exchange: index owner (position 2) has no key (the zero TableKey)"},
	} {
		keys = tc.keys
		act, _ := tablekeys.Contract{Account: exch}.Place(tablekeys.Place{Owner: alice, Price: float64(i)}, antelope.Active(alice))
		_, err := cl.Transact(t.Context(), key, act)
		var ae *chain.APIError
		if !errors.As(err, &ae) || !strings.Contains(ae.Error(), tc.want) {
			t.Errorf("keys %v: %v, want %q", tc.keys, err, tc.want)
		}
		if _, err := (tablekeys.Contract{Account: exch}).TableOrders().Get(t.Context(), cl, exch, 1); !errors.Is(err, antelope.ErrRowNotFound) {
			t.Errorf("keys %v: the row was stored (%v)", tc.keys, err)
		}
	}
	keys = good
	act, _ := tablekeys.Contract{Account: exch}.Place(tablekeys.Place{Owner: alice, Price: 9}, antelope.Active(alice))
	if _, err := cl.Transact(t.Context(), key, act); err != nil {
		t.Fatalf("the keys the ABI describes: %v", err)
	}
}
