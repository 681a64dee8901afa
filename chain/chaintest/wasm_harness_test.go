package chaintest_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// wasmTester is leap's `tester` for the real contracts of testdata/wasm:
// accounts with keys, contracts deployed from their .wasm and .abi, actions
// pushed one transaction each, signed by their first authorizer.
type wasmTester struct {
	t    *testing.T
	c    *chaintest.Chain
	cl   *chain.Client
	keys map[antelope.Name]antelope.PrivateKey
}

func newWasmTester(t *testing.T, opts ...chaintest.Option) *wasmTester {
	t.Helper()
	c := chaintest.New(append([]chaintest.Option{chaintest.WithoutNetwork()}, opts...)...)
	t.Cleanup(c.Close)
	return &wasmTester{t: t, c: c, cl: c.Client(), keys: map[antelope.Name]antelope.PrivateKey{}}
}

// accounts creates accounts as leap's tester does: a key each for owner
// and active, and the account's own eosio.code permission in active, so
// that its contract may send inline actions with its authority.
func (w *wasmTester) accounts(names ...string) {
	w.t.Helper()
	for _, n := range names {
		name := antelope.MustName(n)
		key, err := antelope.GeneratePrivateKey(nil)
		if err != nil {
			w.t.Fatal(err)
		}
		pub, _ := key.PublicKey()
		owner := chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}
		active := owner
		active.Accounts = []chain.PermissionLevelWeight{{Permission: antelope.PermissionLevel{Actor: name, Permission: antelope.MustName("eosio.code")}, Weight: 1}}
		w.c.CreateAccountWithAuthority(name, owner, active)
		w.keys[name] = key
	}
}

// contractFile reads testdata/wasm/<name>.<ext>.
func contractFile(t testing.TB, name, ext string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "wasm", name+"."+ext))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// deploy sets the contract file (testdata/wasm/<file>.wasm, and its .abi
// when there is one) at account, with DeployWASM.
func (w *wasmTester) deploy(account, file string) {
	w.t.Helper()
	code := contractFile(w.t, file, "wasm")
	var abi []byte
	if b, err := os.ReadFile(filepath.Join("testdata", "wasm", file+".abi")); err == nil {
		abi = b
	}
	if err := w.c.DeployWASM(antelope.MustName(account), code, abi); err != nil {
		w.t.Fatal(err)
	}
}

// push sends actions in one transaction, signed by the keys of their
// authorizers; the result, or nodeos's error.
func (w *wasmTester) push(actions ...antelope.Action) (*chain.TransactResult, error) {
	w.t.Helper()
	var signers antelope.PrivateKeys
	seen := map[antelope.Name]bool{}
	for _, a := range actions {
		for _, l := range a.Authorization {
			if k, ok := w.keys[l.Actor]; ok && !seen[l.Actor] {
				signers = append(signers, k)
				seen[l.Actor] = true
			}
		}
	}
	return w.cl.Transact(w.t.Context(), signers, actions...)
}

// mustPush pushes and fails the test on an error.
func (w *wasmTester) mustPush(actions ...antelope.Action) *chain.TransactResult {
	w.t.Helper()
	res, err := w.push(actions...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// act builds an action with raw data, authorized by signer@active.
func act(contract, name string, data []byte, signer string) antelope.Action {
	return antelope.Action{Account: antelope.MustName(contract), Name: antelope.MustName(name),
		Authorization: []antelope.PermissionLevel{antelope.Active(antelope.MustName(signer))}, Data: data}
}

// wantAssert checks a contract's refusal: eosio_assert_message_exception,
// exactly "assertion failure with message: " + msg.
func wantAssert(t testing.TB, err error, msg string) {
	t.Helper()
	wantException(t, err, "eosio_assert_message_exception", "assertion failure with message: "+msg)
}

// wantException checks nodeos's exception name and first message exactly.
func wantException(t testing.TB, err error, name, msg string) {
	t.Helper()
	var ae *chain.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("got %v, want %s: %s", err, name, msg)
	}
	if ae.Name != name || len(ae.Details) == 0 || ae.Details[0].Message != msg {
		got := ""
		if len(ae.Details) > 0 {
			got = ae.Details[0].Message
		}
		t.Fatalf("got %s: %q, want %s: %q", ae.Name, got, name, msg)
	}
}

func asset(t testing.TB, s string) antelope.Asset {
	t.Helper()
	a, err := antelope.ParseAsset(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func symbolOf(t testing.TB, s string) antelope.Symbol {
	t.Helper()
	sym, err := antelope.ParseSymbol(s)
	if err != nil {
		t.Fatal(err)
	}
	return sym
}
