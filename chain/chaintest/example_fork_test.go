package chaintest_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Forking a live chain at a past block and testing a transfer against its
// real state. Here the live chain is itself a chaintest, with the real
// eosio.token wasm; in a test of yours it is a node and a state service.
func Example_fork() {
	ctx := context.Background()
	live := chaintest.New()
	defer live.Close()
	tok, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	tokKey, aliceKey := live.NewAccount(tok), live.NewAccount(alice)
	live.NewAccount(bob)
	wasm, _ := os.ReadFile("testdata/wasm/eosio.token.wasm")
	abi, _ := os.ReadFile("testdata/wasm/eosio.token.abi")
	if err := live.DeployWASM(tok, wasm, abi); err != nil {
		panic(err)
	}
	token := eosiotoken.Contract{Account: tok}
	// do sends one action to node, signed by key, and prints a refusal.
	do := func(node *chaintest.Chain, key antelope.PrivateKey) func(antelope.Action, error) {
		return func(a antelope.Action, err error) {
			if err != nil {
				panic(err)
			}
			var refused *chain.APIError
			if _, err := node.Client().Transact(ctx, key, a); errors.As(err, &refused) {
				fmt.Println("refused:", refused.AssertMessage())
			} else if err != nil {
				panic(err)
			}
		}
	}
	do(live, tokKey)(token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 TOK")}, antelope.Active(tok)))
	do(live, aliceKey)(token.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 TOK")}, antelope.Active(alice)))
	forkBlock := live.Head().Num
	do(live, aliceKey)(token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("60.0000 TOK")}, antelope.Active(alice)))

	// The fork: alice's 100 TOK of block forkBlock, not the 40 of the head.
	fork, err := chaintest.NewFork(chaintest.Remote{NodeURL: live.URL(), StateURL: live.URL(), AuthURL: live.AuthURL(),
		APIKey: "chaintest-key", Block: forkBlock})
	if err != nil {
		panic(err)
	}
	defer fork.Close()
	do(fork, aliceKey)(token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("70.0000 TOK")}, antelope.Active(alice)))
	do(live, aliceKey)(token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("70.0000 TOK")}, antelope.Active(alice)))
	for _, node := range []*chaintest.Chain{fork, live} {
		bal, _ := node.Client().GetCurrencyBalance(ctx, tok, alice, "TOK")
		fmt.Println("alice:", bal[0])
	}
	fmt.Println("requests to the live chain:", fork.ForkStats().Requests > 0)
	// Output:
	// refused: overdrawn balance
	// alice: 30.0000 TOK
	// alice: 40.0000 TOK
	// requests to the live chain: true
}
