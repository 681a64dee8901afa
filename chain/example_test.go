package chain_test

import (
	"context"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Send a token transfer and read the balances back, against a local test
// chain (chaintest) standing in for a node: with a real one, the client is
// chain.New("https://wax.example.io") and the key comes from the
// environment.
func Example() {
	ctx := context.Background()
	node := chaintest.New()
	defer node.Close()
	alice, bob, tokenAcct := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token")
	aliceKey := node.NewAccount(alice)
	node.NewAccount(bob)
	tokenKey := node.NewAccount(tokenAcct)
	_ = node.DeployToken(tokenAcct)

	c := node.Client() // chain.New(node.URL()) with no retry sleeps
	tok := eosiotoken.Contract{Account: tokenAcct}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000.0000 SYS")}, antelope.Active(tokenAcct))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 SYS")}, antelope.Active(alice))
	if _, err := c.Transact(ctx, tokenKey, create); err != nil {
		panic(err)
	}
	if _, err := c.Transact(ctx, aliceKey, issue); err != nil {
		panic(err)
	}

	transfer, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("2.5000 SYS"), Memo: "lunch"}, antelope.Active(alice))
	res, err := c.Transact(ctx, aliceKey, transfer)
	if err != nil {
		panic(err)
	}
	fmt.Println("actions executed:", len(res.Actions)) // the transfer and its two notifications

	for _, owner := range []antelope.Name{alice, bob} {
		q := antelope.TableQuery{Code: tokenAcct, Scope: owner, Table: antelope.MustName("accounts")}
		for row, err := range c.TableRows(ctx, q) {
			if err != nil {
				panic(err)
			}
			var acct eosiotoken.Account
			if err := acct.UnmarshalBinary(row.Data); err != nil {
				panic(err)
			}
			fmt.Println(owner, acct.Balance)
		}
	}
	// The state service: bob's balance as it was before the transfer.
	before := node.State().At(res.BlockNum - 1)
	n := 0
	for range before.TableRows(ctx, antelope.TableQuery{Code: tokenAcct, Scope: bob, Table: antelope.MustName("accounts")}) {
		n++
	}
	fmt.Println("bob's rows before:", n)
	// Output:
	// actions executed: 3
	// alice 97.5000 SYS
	// bob 2.5000 SYS
	// bob's rows before: 0
}
