package antelope_test

import (
	"fmt"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/model"
)

// A shop asks a wallet to pay an order: the payer is the placeholder, which
// the wallet resolves to whoever signs. The shop's backend resolves the
// same request to check what the wallet signed.
func Example_signingRequest() {
	name := func(s string) antelope.Name { n, _ := antelope.ParseName(s); return n }
	price, _ := antelope.ParseAsset("1.0000 EOS")
	act, err := eosiotoken.Contract{Account: name("eosio.token")}.Transfer(eosiotoken.Transfer{
		From: antelope.ESRPlaceholderActor, To: name("shop"), Quantity: price, Memo: "order 42",
	}, antelope.ESRPlaceholderAuth)
	if err != nil {
		panic(err)
	}
	eos := antelope.ESRChainAliases[1]
	req := antelope.NewESR(antelope.ESRChainFor(eos), act)
	req.SetCallback("https://shop.example/paid?tx={{tx}}", true)
	uri, _ := req.URI()
	back, _ := antelope.ParseESR(uri)
	fmt.Println(back.Kind, back.Version, back.ShouldBroadcast(), back.Callback)

	// Resolving needs the token contract's ABI to find the placeholder in
	// the transfer's data: the generated package's (or any ABI's bytes).
	names, err := model.ContractsOf(map[antelope.Name][]byte{name("eosio.token"): eosiotoken.ABIJSON})
	if err != nil {
		panic(err)
	}
	signer := antelope.PermissionLevel{Actor: name("alice"), Permission: name("active")}
	block, _ := antelope.ParseChecksum256("0a1b2c3d00000000aabbccdd00000000000000000000000000000000000000ff")
	ctx := antelope.ESRContextAt(block, time.Unix(1_900_000_000, 0), 60) // TAPoS of a recent block
	res, err := back.Resolve(signer, ctx, names)
	if err != nil {
		panic(err)
	}
	var transfer eosiotoken.Transfer
	_ = transfer.UnmarshalBinary(res.Transaction.Actions[0].Data)
	fmt.Println(res.Transaction.Actions[0].Authorization[0].Actor, transfer.From, transfer.To, transfer.Quantity, res.Transaction.Expiration)
	// Output:
	// action 2 true https://shop.example/paid?tx={{tx}}
	// alice alice shop 1.0000 EOS 2030-03-17T17:47:40
}
