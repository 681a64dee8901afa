package hyperion_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/hyperion"
)

// An account's last transfers, newest first, typed by the generated
// eosio.token bindings — here the last 3, from a test chain's Hyperion.
func Example_lastTransfers() {
	node, alice := exampleChain()
	defer node.Close()
	srv := httptest.NewServer(node.Hyperion())
	defer srv.Close()
	ctx := context.Background()

	h := hyperion.New(srv.URL)
	f := hyperion.ActionFilter{Account: alice, Order: hyperion.Desc}
	n := 0
	for ev, err := range hyperion.Actions(ctx, h, eosiotoken.Actions.Transfer, f) {
		if err != nil {
			panic(err) // a request failed, or the node misbehaved
		}
		if n++; n > 3 { // 1000 for the last 1,000
			break
		}
		fmt.Println(ev.Data.From, "->", ev.Data.To, ev.Data.Quantity, ev.Data.Memo)
	}
	// Output:
	// alice -> bob 5.0000 TOK 5
	// alice -> bob 4.0000 TOK 4
	// alice -> bob 3.0000 TOK 3
}

// exampleChain is a chain where alice sent bob five transfers.
func exampleChain() (*chaintest.Chain, antelope.Name) {
	node := chaintest.New()
	tok, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	keys := map[antelope.Name]antelope.PrivateKey{tok: node.NewAccount(tok), alice: node.NewAccount(alice)}
	node.NewAccount(bob)
	if err := node.DeployToken(tok); err != nil {
		panic(err)
	}
	send := func(signer antelope.Name, a antelope.Action) {
		if _, err := node.Client().Transact(context.Background(), keys[signer], a); err != nil {
			panic(err)
		}
	}
	send(tok, must(eosiotoken.Default.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 TOK")}, antelope.Active(tok))))
	send(alice, must(eosiotoken.Default.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 TOK")}, antelope.Active(alice))))
	for i := 1; i <= 5; i++ {
		q := antelope.Asset{Amount: int64(i) * 10000, Symbol: antelope.MustSymbol("4,TOK")}
		send(alice, must(eosiotoken.Default.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: q, Memo: fmt.Sprint(i)}, antelope.Active(alice))))
	}
	return node, alice
}
