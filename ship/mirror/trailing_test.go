package mirror

import (
	"context"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// Anyone can send eosio.token a transfer whose data has bytes after its
// fields: the contract reads the fields and ignores the rest, so the
// action takes effect. The mirror stores it (its columns from the fields,
// _raw the data as sent) and goes on: a stranger's extra byte cannot stop
// every mirror of the contract.
func TestActionWithTrailingBytes(t *testing.T) {
	tc := newTokenChain(t)
	tok := eosiotoken.Contract{Account: token}
	a, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.00000000 WAX"), Memo: "extra"}, antelope.Active(alice))
	a.Data = append(a.Data, 0xde, 0xad)
	tc.send(alice, a) // executed: the contract ignores the bytes
	tc.block(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, d := databases()[0].open(t)
	m := mirrorOf(t, db, d, false)
	if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil); err != nil {
		t.Fatal(err)
	}
	checkTables(t, tc, m)
	var memo string
	var raw []byte
	if err := db.QueryRow(`SELECT "memo", "_raw" FROM "transfer_action" WHERE "memo" = 'extra'`).Scan(&memo, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw) != string(a.Data) {
		t.Errorf("_raw %x, want %x", raw, a.Data)
	}
}
