package mirror_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/mirror"
)

// eosio.token mirrored into SQLite from a chain's state history, and
// queried with plain SQL.
func Example() {
	ctx := context.Background()
	node := chaintest.New()
	defer node.Close()
	token, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	keys := antelope.PrivateKeys{node.NewAccount(alice)}
	tokenKeys := antelope.PrivateKeys{node.NewAccount(token)}
	node.NewAccount(bob)
	start := node.Head().Num + 1
	node.DeployToken(token)
	tok := eosiotoken.Contract{Account: token}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("100.0000 TKN")}, antelope.Active(token))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 TKN")}, antelope.Active(alice))
	transfer, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("2.5000 TKN"), Memo: "hi"}, antelope.Active(alice))
	cl := node.Client()
	cl.Transact(ctx, tokenKeys, create)
	cl.Transact(ctx, keys, issue)
	cl.Transact(ctx, keys, transfer)

	dir, _ := os.MkdirTemp("", "mirror")
	defer os.RemoveAll(dir)

	// The mirror: a database, the contract's ABI, a stream.
	db, dialect, err := mirror.OpenDB(ctx, "sqlite:"+filepath.Join(dir, "token.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	m, err := mirror.Open(ctx, db, dialect, eosiotoken.ABIJSON, mirror.Options{Contract: token, Actions: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := m.Run(ctx, node.SHiPClient(), ship.Request{Start: start, End: node.Head().Num + 1}, nil); err != nil {
		fmt.Println(err)
		return
	}

	rows, _ := db.Query(`SELECT scope, balance_amount, balance_symbol FROM accounts ORDER BY scope`)
	for rows.Next() {
		var owner, symbol string
		var amount int64
		rows.Scan(&owner, &amount, &symbol)
		fmt.Println(owner, amount, symbol)
	}
	rows.Close()
	var from, to, memo string
	db.QueryRow(`SELECT "from", "to", memo FROM transfer_action`).Scan(&from, &to, &memo)
	fmt.Println(from, "→", to, memo)
	// Output:
	// alice 975000 4,TKN
	// bob 25000 4,TKN
	// alice → bob hi
}
