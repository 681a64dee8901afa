package chaintest_test

import (
	"errors"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

var (
	alice      = antelope.MustName("alice")
	bob        = antelope.MustName("bob")
	eosioToken = antelope.MustName("eosio.token")
	waxSym     = antelope.MustSymbol("8,WAX")
)

func wax(amount int64) antelope.Asset { return antelope.Asset{Amount: amount, Symbol: waxSym} }

// tokenChain is a chain with eosio.token deployed (its key in the
// returned map), WAX created and issued to alice, and bob.
func tokenChain(t *testing.T, opts ...chaintest.Option) (*chaintest.Chain, map[antelope.Name]antelope.PrivateKey) {
	return tokenChainOf(t, "go", opts...)
}

// tokenImpls are the two eosio.tokens: the Go TokenContract and the real
// eosio.token.wasm.
var tokenImpls = []string{"go", "wasm"}

// tokenChainOf is tokenChain with the token of impl ("go" or "wasm").
func tokenChainOf(t *testing.T, impl string, opts ...chaintest.Option) (*chaintest.Chain, map[antelope.Name]antelope.PrivateKey) {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	keys := map[antelope.Name]antelope.PrivateKey{}
	for _, n := range []antelope.Name{eosioToken, alice, bob} {
		keys[n] = c.NewAccount(n)
	}
	var err error
	if impl == "wasm" {
		err = c.DeployWASM(eosioToken, contractFile(t, "eosio.token", "wasm"), contractFile(t, "eosio.token", "abi"))
	} else {
		err = c.DeployToken(eosioToken)
	}
	if err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	tok := eosiotoken.Contract{Account: eosioToken}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: wax(1_000_000_00000000)}, antelope.Active(eosioToken))
	if _, err := cl.Transact(t.Context(), keys[eosioToken], create); err != nil {
		t.Fatal(err)
	}
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: wax(1000_00000000), Memo: "genesis"}, antelope.Active(alice))
	if _, err := cl.Transact(t.Context(), keys[alice], issue); err != nil {
		t.Fatal(err)
	}
	return c, keys
}

// contractChain is a chain with a contract deployed at acct (its ABI and
// handler) and the account user, whose key it returns.
func contractChain(t *testing.T, acct antelope.Name, abi []byte, h chaintest.Handler, user antelope.Name, opts ...chaintest.Option) (*chaintest.Chain, antelope.PrivateKey) {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	key := c.NewAccount(user)
	if err := c.SetContract(acct, abi, h); err != nil {
		t.Fatal(err)
	}
	return c, key
}

func balance(t *testing.T, r antelope.TableReader, owner antelope.Name) int64 {
	t.Helper()
	var total int64
	for row, err := range r.TableRows(t.Context(), antelope.TableQuery{Code: eosioToken, Scope: owner, Table: antelope.MustName("accounts")}) {
		if err != nil {
			t.Fatal(err)
		}
		var a eosiotoken.Account
		if err := a.UnmarshalBinary(row.Data); err != nil {
			t.Fatal(err)
		}
		total += a.Balance.Amount
	}
	return total
}

// The same run over HTTP and in process (WithoutNetwork), with the Go
// token and the real wasm.
func TestTokenTransferEndToEnd(t *testing.T) {
	for _, impl := range tokenImpls {
		t.Run(impl+"/http", func(t *testing.T) { tokenTransferEndToEnd(t, impl) })
		t.Run(impl+"/in-process", func(t *testing.T) { tokenTransferEndToEnd(t, impl, chaintest.WithoutNetwork()) })
	}
}

func tokenTransferEndToEnd(t *testing.T, impl string, opts ...chaintest.Option) {
	c, keys := tokenChainOf(t, impl, opts...)
	cl := c.Client()
	before := c.Head().Num
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(12_50000000), Memo: "hi"}, antelope.Active(alice))
	res, err := cl.Transact(t.Context(), keys[alice], tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.BlockNum != before+1 || len(res.Actions) != 3 { // transfer + notifications of alice and bob
		t.Errorf("result: block %d, %d action traces", res.BlockNum, len(res.Actions))
	}
	if got := balance(t, cl, alice); got != 987_50000000 {
		t.Errorf("alice has %d", got)
	}
	if got := balance(t, cl, bob); got != 12_50000000 {
		t.Errorf("bob has %d", got)
	}
	// get_currency_balance agrees.
	bal, err := cl.GetCurrencyBalance(t.Context(), eosioToken, bob, "WAX")
	if err != nil || len(bal) != 1 || bal[0].String() != "12.50000000 WAX" {
		t.Errorf("get_currency_balance: %v %v", bal, err)
	}
	// The state service, before and after the transfer's block.
	st := c.State()
	if got := balance(t, st.At(before), bob); got != 0 {
		t.Errorf("bob at block %d: %d", before, got)
	}
	if got := balance(t, st.At(res.BlockNum), bob); got != 12_50000000 {
		t.Errorf("bob at block %d: %d", res.BlockNum, got)
	}
	// A contract's assertion comes back with its message.
	over, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: bob, To: alice, Quantity: wax(13_00000000)}, antelope.Active(bob))
	_, err = cl.Transact(t.Context(), keys[bob], over)
	var ae *chain.APIError
	if !errors.Is(err, chain.ErrAssert) || !errors.As(err, &ae) || ae.AssertMessage() != "overdrawn balance" || ae.Code != 3050003 {
		t.Errorf("overdraw: %v", err)
	}
	if got := balance(t, cl, bob); got != 12_50000000 {
		t.Errorf("a failed transaction changed bob's balance to %d", got)
	}
}

// A 2-of-3 multisig permission: one key is not enough, two are; a key the
// permission does not list is refused as irrelevant.
func TestThresholdAuthority(t *testing.T) {
	c, keys := tokenChain(t)
	var k [4]antelope.PrivateKey
	var pubs [4]antelope.PublicKey
	for i := range k {
		k[i] = c.NewAccount(antelope.MustName("tmp" + string(rune('a'+i))))
		pubs[i], _ = k[i].PublicKey()
	}
	treasury := antelope.MustName("treasury")
	auth := chain.Authority{Threshold: 2, Keys: []chain.KeyWeight{{Key: pubs[0], Weight: 1}, {Key: pubs[1], Weight: 1}, {Key: pubs[2], Weight: 1}}}
	c.CreateAccountWithAuthority(treasury, auth, auth)
	cl := c.Client()
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: treasury, Quantity: wax(10)}, antelope.Active(alice))
	if _, err := cl.Transact(t.Context(), keys[alice], tr); err != nil {
		t.Fatal(err)
	}
	spend, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: treasury, To: bob, Quantity: wax(4)}, antelope.Active(treasury))
	var ae *chain.APIError
	if _, err := cl.Transact(t.Context(), k[0], spend); !errors.As(err, &ae) || ae.Name != "unsatisfied_authorization" {
		t.Errorf("one of three keys: %v", err)
	}
	c.Produce()
	if _, err := cl.Transact(t.Context(), antelope.PrivateKeys{k[0], k[2]}, spend); err != nil {
		t.Errorf("two of three keys: %v", err)
	}
	// A fourth key the permission does not list: get_required_keys drops
	// it, so the client still signs with the two that count.
	c.Produce()
	if _, err := cl.Transact(t.Context(), antelope.PrivateKeys{k[1], k[3], k[2]}, spend); err != nil {
		t.Errorf("two keys and a stranger: %v", err)
	}
	// Signing with the stranger's key by hand is refused.
	tx, chainID, _ := cl.BuildTransaction(t.Context(), spend)
	req, _ := antelope.NewSigningRequest(chainID, tx, nil, nil)
	var sigs []antelope.Signature
	for _, key := range []antelope.PrivateKey{k[0], k[1], k[3]} {
		s, _ := key.Sign(t.Context(), req)
		sigs = append(sigs, s...)
	}
	_, err := cl.SendTransaction(t.Context(), &antelope.SignedTransaction{Transaction: *tx, Signatures: sigs})
	if !errors.As(err, &ae) || ae.Name != "tx_irrelevant_sig" {
		t.Errorf("an irrelevant signature: %v", err)
	}
	if got := balance(t, cl, bob); got != 8 {
		t.Errorf("bob has %d", got)
	}
}

// open, close and retire move rows and supply as eosio.token does, with
// its messages.
func TestTokenOpenCloseRetire(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	tok := eosiotoken.Contract{Account: eosioToken}
	// send(key)(tok.X(...)) signs with key and sends what the builder made.
	send := func(key antelope.PrivateKey) func(antelope.Action, error) error {
		return func(act antelope.Action, err error) error {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			c.Produce()
			_, err = cl.Transact(t.Context(), key, act)
			return err
		}
	}
	assertMsg := func(err error, msg string) {
		t.Helper()
		if got, ok := chain.AssertMessage(err); !ok || got != msg {
			t.Errorf("want %q, got %v", msg, err)
		}
	}
	// bob opens a zero balance, paying for it himself.
	if err := send(keys[bob])(tok.Open(eosiotoken.Open{Owner: bob, Symbol: waxSym, RAMPayer: bob}, antelope.Active(bob))); err != nil {
		t.Fatal(err)
	}
	row, err := eosiotoken.TableAccounts.Get(t.Context(), cl, bob, uint64(waxSym.Code))
	if err != nil || row.Balance != wax(0) {
		t.Fatalf("opened: %v %v", row, err)
	}
	assertMsg(send(keys[bob])(tok.Open(eosiotoken.Open{Owner: bob, Symbol: antelope.Symbol{Precision: 4, Code: waxSym.Code}, RAMPayer: bob}, antelope.Active(bob))), "symbol precision mismatch")
	// close needs a zero balance.
	if err := send(keys[alice])(tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(5)}, antelope.Active(alice))); err != nil {
		t.Fatal(err)
	}
	assertMsg(send(keys[bob])(tok.Close(eosiotoken.Close{Owner: bob, Symbol: waxSym}, antelope.Active(bob))), "Cannot close because the balance is not zero.")
	if err := send(keys[bob])(tok.Transfer(eosiotoken.Transfer{From: bob, To: alice, Quantity: wax(5)}, antelope.Active(bob))); err != nil {
		t.Fatal(err)
	}
	if err := send(keys[bob])(tok.Close(eosiotoken.Close{Owner: bob, Symbol: waxSym}, antelope.Active(bob))); err != nil {
		t.Fatal(err)
	}
	if _, err := eosiotoken.TableAccounts.Get(t.Context(), cl, bob, uint64(waxSym.Code)); !errors.Is(err, antelope.ErrRowNotFound) {
		t.Errorf("closed: %v", err)
	}
	assertMsg(send(keys[bob])(tok.Close(eosiotoken.Close{Owner: bob, Symbol: waxSym}, antelope.Active(bob))), "Balance row already deleted or never existed. Action won't have any effect.")
	// retire takes supply out of the issuer's balance.
	if err := send(keys[alice])(tok.Retire(eosiotoken.Retire{Quantity: wax(100_00000000), Memo: "burn"}, antelope.Active(alice))); err != nil {
		t.Fatal(err)
	}
	stat, err := eosiotoken.TableStat.Get(t.Context(), cl, antelope.Name(waxSym.Code), uint64(waxSym.Code))
	if err != nil {
		t.Fatal(err)
	}
	if stat.Supply != wax(900_00000000) || balance(t, cl, alice) != 900_00000000 {
		t.Errorf("after retire: supply %v, alice %d", stat.Supply, balance(t, cl, alice))
	}
	assertMsg(send(keys[alice])(tok.Issue(eosiotoken.Issue{To: bob, Quantity: wax(1)}, antelope.Active(alice))), "tokens can only be issued to issuer account")
	assertMsg(send(keys[alice])(tok.Issue(eosiotoken.Issue{To: alice, Quantity: wax(1_000_000_00000000)}, antelope.Active(alice))), "quantity exceeds available supply")
	assertMsg(send(keys[eosioToken])(tok.Create(eosiotoken.Create{Issuer: bob, MaximumSupply: wax(1)}, antelope.Active(eosioToken))), "token with symbol already exists")
}
