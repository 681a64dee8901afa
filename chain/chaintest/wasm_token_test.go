package chaintest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// leap's unittests/eosio.token_tests.cpp and currency_tests.cpp, replayed
// against the real eosio.token.wasm with their exact messages.

type tokenTester struct {
	*wasmTester
	tok eosiotoken.Contract
}

func newTokenTester(t *testing.T, accounts ...string) *tokenTester {
	w := newWasmTester(t)
	w.accounts(append([]string{"eosio.token"}, accounts...)...)
	w.deploy("eosio.token", "eosio.token")
	return &tokenTester{wasmTester: w, tok: eosiotoken.Contract{Account: eosioToken}}
}

func (tt *tokenTester) create(issuer string, max antelope.Asset) error {
	a, err := tt.tok.Create(eosiotoken.Create{Issuer: antelope.MustName(issuer), MaximumSupply: max}, antelope.Active(eosioToken))
	if err != nil {
		return err
	}
	_, err = tt.push(a)
	return err
}

func (tt *tokenTester) issue(signer, to string, q antelope.Asset, memo string) error {
	a, err := tt.tok.Issue(eosiotoken.Issue{To: antelope.MustName(to), Quantity: q, Memo: memo}, antelope.Active(antelope.MustName(signer)))
	if err != nil {
		return err
	}
	_, err = tt.push(a)
	return err
}

func (tt *tokenTester) transfer(from, to string, q antelope.Asset, memo string) error {
	a, err := tt.tok.Transfer(eosiotoken.Transfer{From: antelope.MustName(from), To: antelope.MustName(to), Quantity: q, Memo: memo},
		antelope.Active(antelope.MustName(from)))
	if err != nil {
		return err
	}
	_, err = tt.push(a)
	return err
}

func (tt *tokenTester) stats(sym string) eosiotoken.CurrencyStats {
	tt.t.Helper()
	s := symbolOf(tt.t, sym)
	st, err := eosiotoken.TableStat.Get(tt.t.Context(), tt.cl, antelope.Name(s.Code), uint64(s.Code))
	if err != nil {
		tt.t.Fatal(err)
	}
	return st
}

// balance is leap's get_currency_balance: a zero asset when there is no
// row.
func (tt *tokenTester) balance(owner, sym string) string {
	tt.t.Helper()
	s := symbolOf(tt.t, sym)
	acct, err := eosiotoken.TableAccounts.Get(tt.t.Context(), tt.cl, antelope.MustName(owner), uint64(s.Code))
	if errors.Is(err, antelope.ErrRowNotFound) {
		return antelope.Asset{Symbol: s}.String()
	}
	if err != nil {
		tt.t.Fatal(err)
	}
	return acct.Balance.String()
}

func (tt *tokenTester) wantStats(sym, supply, max, issuer string) {
	tt.t.Helper()
	st := tt.stats(sym)
	if st.Supply.String() != supply || st.MaxSupply.String() != max || st.Issuer.String() != issuer {
		tt.t.Fatalf("stat %s = {%s %s %s}, want {%s %s %s}", sym, st.Supply, st.MaxSupply, st.Issuer, supply, max, issuer)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestLeapTokenCreate(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "1000.000 TKN")))
	tt.wantStats("3,TKN", "0.000 TKN", "1000.000 TKN", "alice")
}

func TestLeapTokenCreateNegativeMaxSupply(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	wantAssert(t, tt.create("alice", asset(t, "-1000.000 TKN")), "max-supply must be positive")
}

func TestLeapTokenSymbolAlreadyExists(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "100 TKN")))
	tt.wantStats("0,TKN", "0 TKN", "100 TKN", "alice")
	tt.c.Produce()
	wantAssert(t, tt.create("alice", asset(t, "100 TKN")), "token with symbol already exists")
}

// create_max_supply and create_max_decimals: 2^62−1 is the largest amount;
// 2^62 (and 10^19) never reach the contract: the client's serializer
// refuses them, as leap's abi_serializer does.
func TestLeapTokenCreateMaxSupply(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "4611686018427387903 TKN")))
	tt.wantStats("0,TKN", "0 TKN", "4611686018427387903 TKN", "alice")
	tt.c.Produce()
	err := tt.create("alice", antelope.Asset{Amount: 4611686018427387904, Symbol: symbolOf(t, "0,NKT")})
	if err == nil || !strings.Contains(err.Error(), "2^62") {
		t.Fatalf("2^62: %v", err)
	}
}

func TestLeapTokenCreateMaxDecimals(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "1.000000000000000000 TKN")))
	tt.wantStats("18,TKN", "0.000000000000000000 TKN", "1.000000000000000000 TKN", "alice")
	tt.c.Produce()
	var amount uint64 = 0x8ac7230489e80000 // 10^19, over int64
	err := tt.create("alice", antelope.Asset{Amount: int64(amount), Symbol: symbolOf(t, "0,NKT")})
	if err == nil || !strings.Contains(err.Error(), "2^62") {
		t.Fatalf("10^19: %v", err)
	}
}

func TestLeapTokenIssue(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "1000.000 TKN")))
	tt.c.Produce()
	must(t, tt.issue("alice", "alice", asset(t, "500.000 TKN"), "hola"))
	tt.wantStats("3,TKN", "500.000 TKN", "1000.000 TKN", "alice")
	if got := tt.balance("alice", "3,TKN"); got != "500.000 TKN" {
		t.Fatalf("alice: %s", got)
	}
	wantAssert(t, tt.issue("alice", "alice", asset(t, "500.001 TKN"), "hola"), "quantity exceeds available supply")
	wantAssert(t, tt.issue("alice", "alice", asset(t, "-1.000 TKN"), "hola"), "must issue positive quantity")
	must(t, tt.issue("alice", "alice", asset(t, "1.000 TKN"), "hola"))
}

func TestLeapTokenTransfer(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob", "carol")
	must(t, tt.create("alice", asset(t, "1000 CERO")))
	tt.c.Produce()
	must(t, tt.issue("alice", "alice", asset(t, "1000 CERO"), "hola"))
	tt.wantStats("0,CERO", "1000 CERO", "1000 CERO", "alice")
	if got := tt.balance("alice", "0,CERO"); got != "1000 CERO" {
		t.Fatalf("alice: %s", got)
	}
	must(t, tt.transfer("alice", "bob", asset(t, "300 CERO"), "hola"))
	if a, b := tt.balance("alice", "0,CERO"), tt.balance("bob", "0,CERO"); a != "700 CERO" || b != "300 CERO" {
		t.Fatalf("alice %s, bob %s", a, b)
	}
	wantAssert(t, tt.transfer("alice", "bob", asset(t, "701 CERO"), "hola"), "overdrawn balance")
	wantAssert(t, tt.transfer("alice", "bob", asset(t, "-1000 CERO"), "hola"), "must transfer positive quantity")
}

// The transfer's checks in the contract's order, each with its message.
func TestLeapTokenTransferMessages(t *testing.T) {
	tt := newTokenTester(t, "alice", "bob")
	must(t, tt.create("alice", asset(t, "1000.000 TKN")))
	must(t, tt.issue("alice", "alice", asset(t, "100.000 TKN"), ""))
	wantAssert(t, tt.transfer("alice", "alice", asset(t, "1.000 TKN"), ""), "cannot transfer to self")
	wantAssert(t, tt.transfer("alice", "nobody", asset(t, "1.000 TKN"), ""), "to account does not exist")
	wantAssert(t, tt.transfer("alice", "bob", asset(t, "1.000 XYZ"), ""), "unable to find key")
	wantAssert(t, tt.transfer("alice", "bob", asset(t, "1.00 TKN"), ""), "symbol precision mismatch")
	wantAssert(t, tt.transfer("alice", "bob", asset(t, "1.000 TKN"), strings.Repeat("m", 257)), "memo has more than 256 bytes")
	wantAssert(t, tt.transfer("bob", "alice", asset(t, "1.000 TKN"), ""), "no balance object found")
	// require_auth(from): bob signs a transfer from alice.
	a, _ := tt.tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: asset(t, "1.000 TKN")}, antelope.Active(bob))
	_, err := tt.push(a)
	wantException(t, err, "missing_auth_exception", "missing authority of alice")
}

// currency_tests.cpp: the fixture creates CUR with eosio.token as issuer
// and issues a million to it.
func newCurrencyTester(t *testing.T, accounts ...string) *tokenTester {
	tt := newTokenTester(t, accounts...)
	must(t, tt.create("eosio.token", asset(t, "1000000000.0000 CUR")))
	must(t, tt.issue("eosio.token", "eosio.token", asset(t, "1000000.0000 CUR"), "gggggggggggg"))
	tt.c.Produce()
	return tt
}

func TestLeapCurrencyBootstrap(t *testing.T) {
	tt := newCurrencyTester(t)
	if got := tt.balance("eosio.token", "4,CUR"); got != "1000000.0000 CUR" {
		t.Fatal(got)
	}
}

func TestLeapCurrencyTransfer(t *testing.T) {
	tt := newCurrencyTester(t, "alice")
	res := tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice"))
	if res.BlockNum == 0 {
		t.Fatal("not in a block")
	}
	if got := tt.balance("alice", "4,CUR"); got != "100.0000 CUR" {
		t.Fatal(got)
	}
}

func TestLeapCurrencyDuplicateTransfer(t *testing.T) {
	tt := newCurrencyTester(t, "alice")
	tr := tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice")
	// The same transaction twice with no block between: the same id.
	tx, chainID, err := tt.cl.BuildTransaction(t.Context(), tr)
	must(t, err)
	signed, err := tt.cl.Sign(t.Context(), tt.keys[eosioToken], chainID, tx)
	must(t, err)
	_, err = tt.cl.SendTransaction(t.Context(), signed)
	must(t, err)
	// tx_duplicate proves nothing by itself; the chain shows the first
	// send executed it: AlreadySubmitted, executed once.
	res, err := tt.cl.SendTransaction(t.Context(), signed)
	if err != nil || !res.AlreadySubmitted {
		t.Fatalf("second: %+v, %v", res, err)
	}
	if got := tt.balance("alice", "4,CUR"); got != "100.0000 CUR" {
		t.Fatal(got)
	}
}

func TestLeapCurrencyAddTransfer(t *testing.T) {
	tt := newCurrencyTester(t, "alice")
	tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice"))
	tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "10.0000 CUR", "add Alice"))
	if got := tt.balance("alice", "4,CUR"); got != "110.0000 CUR" {
		t.Fatal(got)
	}
}

func TestLeapCurrencyOverspend(t *testing.T) {
	tt := newCurrencyTester(t, "alice", "bob")
	tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice"))
	_, err := tt.push(tokenTransfer(t, tt, "alice", "bob", "101.0000 CUR", "overspend! Alice"))
	wantAssert(t, err, "overdrawn balance")
	if a, b := tt.balance("alice", "4,CUR"), tt.balance("bob", "4,CUR"); a != "100.0000 CUR" || b != "0.0000 CUR" {
		t.Fatalf("alice %s, bob %s", a, b)
	}
}

func TestLeapCurrencyFullspend(t *testing.T) {
	tt := newCurrencyTester(t, "alice", "bob")
	tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice"))
	tt.mustPush(tokenTransfer(t, tt, "alice", "bob", "100.0000 CUR", "all in! Alice"))
	if a, b := tt.balance("alice", "4,CUR"), tt.balance("bob", "4,CUR"); a != "0.0000 CUR" || b != "100.0000 CUR" {
		t.Fatalf("alice %s, bob %s", a, b)
	}
}

// test_symbol: the asset and symbol parsing of the client, no contract.
// One difference, by design: "10CUR" (no space) parses, as abieos reads
// it, where nodeos says "Asset's amount and symbol should be separated
// with space".
func TestLeapCurrencySymbol(t *testing.T) {
	for _, bad := range []string{"", "RND", "10", "10. CUR"} {
		if _, err := antelope.ParseAsset(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := antelope.ParseSymbol("5,EoS"); err == nil {
		t.Error("5,EoS parsed")
	}
	for in, want := range map[string]string{"10 CUR": "10 CUR", "1000000000.00000  CUR": "1000000000.00000 CUR",
		"-001000000.00010 CUR": "-1000000.00010 CUR", "-000000000.00100 CUR": "-0.00100 CUR", "-0.0001 PPP": "-0.0001 PPP"} {
		a, err := antelope.ParseAsset(in)
		if err != nil || a.String() != want {
			t.Errorf("%q: %v %v", in, a, err)
		}
	}
}

// test_input_quantity: a transfer of an unknown symbol fails in the
// contract; an issue to another account than the issuer is followed by an
// inline transfer from the issuer (sent with eosio.token's eosio.code
// permission).
func TestLeapCurrencyInputQuantity(t *testing.T) {
	tt := newCurrencyTester(t, "alice", "bob", "carl")
	tt.mustPush(tokenTransfer(t, tt, "eosio.token", "alice", "100.0000 CUR", "fund Alice"))
	if got := tt.balance("alice", "4,CUR"); got != "100.0000 CUR" {
		t.Fatal(got)
	}
	_, err := tt.push(tokenTransfer(t, tt, "alice", "carl", "20.50 USD", "USD"))
	wantAssert(t, err, "unable to find key")
	a, err := tt.tok.Issue(eosiotoken.Issue{To: alice, Quantity: asset(t, "25.0256 CUR"), Memo: "issue to alice"}, antelope.Active(eosioToken))
	must(t, err)
	res := tt.mustPush(a)
	if got := tt.balance("alice", "4,CUR"); got != "125.0256 CUR" {
		t.Fatal(got)
	}
	// issue, then its inline transfer (with its notifications of
	// eosio.token and alice), depth-first.
	var got []string
	for _, at := range res.Actions {
		got = append(got, at.Action.Name.String()+"@"+at.Receiver.String())
	}
	if strings.Join(got, " ") != "issue@eosio.token transfer@eosio.token transfer@alice" {
		t.Errorf("traces: %v", got)
	}
}

func tokenTransfer(t *testing.T, tt *tokenTester, from, to, q, memo string) antelope.Action {
	a, err := tt.tok.Transfer(eosiotoken.Transfer{From: antelope.MustName(from), To: antelope.MustName(to), Quantity: asset(t, q), Memo: memo},
		antelope.Active(antelope.MustName(from)))
	must(t, err)
	return a
}

var _ = chain.ErrAssert
