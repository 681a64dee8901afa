package chaintest_test

import (
	"context"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// Testing an indexer against the chain's own state history: transfers run
// by eosio.token, followed with package ship, and a fork that replaces the
// block of one transfer by a block with another. The indexer is told to
// undo the replaced block before it is given the new one.
func Example_stateHistory() {
	ctx := context.Background()
	node := chaintest.New(chaintest.WithManualFinality()) // blocks stay reversible
	defer node.Close()
	tok, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	tokKey, aliceKey := node.NewAccount(tok), node.NewAccount(alice)
	node.NewAccount(bob)
	if err := node.DeployToken(tok); err != nil {
		panic(err)
	}
	c, token := node.Client(), eosiotoken.Contract{Account: tok}
	action := func(a antelope.Action, err error) antelope.Action {
		if err != nil {
			panic(err)
		}
		return a
	}
	send := func(key antelope.PrivateKey, a antelope.Action) uint32 {
		res, err := c.Transact(ctx, key, a)
		if err != nil {
			panic(err)
		}
		return res.BlockNum
	}
	transfer := func(amount string) uint32 {
		return send(aliceKey, action(token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset(amount)}, antelope.Active(alice))))
	}
	send(tokKey, action(token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 TOK")}, antelope.Active(tok))))
	send(aliceKey, action(token.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 TOK")}, antelope.Active(alice))))
	first := transfer("10.0000 TOK")
	second := transfer("20.0000 TOK")

	forked := false
	for ev, err := range node.SHiPClient().Stream(ctx, ship.Request{Start: first}) {
		if err != nil {
			panic(err)
		}
		if ev.Undo != nil {
			for _, b := range ev.Undo.Blocks {
				fmt.Println("undo block", b.Num-first)
			}
			continue
		}
		for t, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer) {
			if err != nil {
				panic(err)
			}
			fmt.Printf("block %d: %s -> %s %s\n", ev.Block.Num-first, t.Data.From, t.Data.To, t.Data.Quantity)
		}
		if ev.Block.Num == second {
			if forked {
				break
			}
			// The chain goes back to the end of the first transfer's block,
			// and the next block holds another transfer.
			forked = true
			if err := node.Rollback(first); err != nil {
				panic(err)
			}
			transfer("25.0000 TOK")
		}
	}
	// Output:
	// block 0: alice -> bob 10.0000 TOK
	// block 1: alice -> bob 20.0000 TOK
	// undo block 1
	// block 1: alice -> bob 25.0000 TOK
}
