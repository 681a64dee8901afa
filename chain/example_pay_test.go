package chain_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Paying for resources: alice has tokens but no CPU or NET. Her transfer
// fails with a ResourceError naming her; the same transfer cosigned by a
// dapp's payer goes through, billed to the payer; a resource provider
// (here chaintest's fake Fuel, for a fee within the maximum) pays too.
// Against a real chain the client is chain.New(url), the provider
// chain.ResourceProvider{URL: "https://eos.greymass.com", …}.
func ExampleClient_TransactWith() {
	ctx := context.Background()
	node := chaintest.New()
	defer node.Close()
	alice, bob, dapp, token := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("dapp"), antelope.MustName("eosio.token")
	aliceKey := node.NewAccount(alice)
	node.NewAccount(bob)
	dappKey := node.NewAccount(dapp)
	tokenKey := node.NewAccount(token)
	_ = node.DeployToken(token)
	_ = node.DeployNoop(antelope.MustName("greymassnoop"))
	c := node.Client()
	tok := eosiotoken.Contract{Account: token}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 SYS")}, antelope.Active(token))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("10.0000 SYS")}, antelope.Active(alice))
	_, _ = c.Transact(ctx, tokenKey, create)
	_, _ = c.Transact(ctx, aliceKey, issue)
	_ = node.SetResources(alice, 0, 0) // no CPU, no NET

	pay, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.0000 SYS"), Memo: "coffee"}, antelope.Active(alice))
	_, err := c.Transact(ctx, aliceKey, pay)
	var re *chain.ResourceError
	if errors.As(err, &re) && errors.Is(err, chain.ErrNET) {
		fmt.Println("refused:", re.Resource, "billed to", re.Account)
	}

	// A cosigner: the dapp's noop goes first, so the dapp pays.
	cosigner := &chain.Cosigner{Permission: antelope.Active(dapp), Signer: dappKey, NoopContract: antelope.MustName("greymassnoop")}
	res, err := c.TransactWith(ctx, aliceKey, chain.TransactOptions{Payer: cosigner}, pay)
	if err != nil {
		panic(err)
	}
	used, _ := node.Resources(dapp)
	fmt.Println("cosigned: paid by", res.Payment.Payer.Actor, "billed", used.CPUUsed, "µs of CPU")

	// A resource provider, for a fee of at most 0.0100 SYS. By default a
	// provider that does not pay is an error (*chain.ProviderError) and
	// nothing is sent.
	fuel, _ := node.NewResourceProvider(antelope.MustName("fuel"))
	fuel.ChargeFee(antelope.ExtendedAsset{Quantity: antelope.MustAsset("0.0010 SYS"), Contract: token})
	provider := &chain.ResourceProvider{URL: node.URL(), MaxFee: antelope.MustAsset("0.0100 SYS")}
	res, err = c.TransactWith(ctx, aliceKey, chain.TransactOptions{Payer: provider}, pay)
	if err != nil {
		panic(err)
	}
	fmt.Println("provider: paid by", res.Payment.Payer.Actor, "for", res.Payment.Fee)

	// SendUnchanged is wharfkit's choice: when the provider does not pay,
	// the transaction goes out as it was, billed to alice, and err is nil.
	// Only Payment.Declined says so: check it.
	fuel.Refuse()
	_ = node.SetResources(alice, 1_000, 10_000) // alice can pay now
	provider.OnRefusal = chain.SendUnchanged
	res, err = c.TransactWith(ctx, aliceKey, chain.TransactOptions{Payer: provider}, pay)
	if err != nil {
		panic(err)
	}
	if res.Payment.Declined != nil {
		fmt.Println("provider declined:", errors.Is(res.Payment.Declined, chain.ErrProviderRefused), "— alice paid")
	}
	bal, _ := c.GetCurrencyBalance(ctx, token, alice, "SYS")
	fmt.Println("alice has", bal[0])
	// Output:
	// refused: NET billed to alice
	// cosigned: paid by dapp billed 100 µs of CPU
	// provider: paid by fuel for 0.0010 SYS
	// provider declined: true — alice paid
	// alice has 6.9990 SYS
}
