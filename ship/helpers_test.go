package ship_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

var (
	token = antelope.MustName("eosio.token")
	alice = antelope.MustName("alice")
	bob   = antelope.MustName("bob")

	other = antelope.MustName("fake.token")
	accts = antelope.MustName("accounts")
	xfer  = antelope.MustName("transfer")
)

// transferTx is a transfer of amount from → to on contract, with the two
// notifications eosio.token sends, and its balance rows.
func transferTx(t testing.TB, contract, from, to antelope.Name, amount string, memo string) (shiptest.Transaction, []shiptest.Row) {
	t.Helper()
	data, err := (&eosiotoken.Transfer{From: from, To: to, Quantity: antelope.MustAsset(amount), Memo: memo}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	auth := []antelope.PermissionLevel{antelope.Active(from)}
	tx := shiptest.Transaction{Actions: []shiptest.Action{
		{Contract: contract, Name: xfer, Data: data, Authorization: auth},
		{Contract: contract, Name: xfer, Receiver: from, Data: data, Authorization: auth},
		{Contract: contract, Name: xfer, Receiver: to, Data: data, Authorization: auth},
	}}
	bal, _ := (&eosiotoken.Account{Balance: antelope.MustAsset(amount)}).MarshalBinary()
	rows := []shiptest.Row{{Code: contract, Scope: to, Table: accts, PrimaryKey: uint64(antelope.MustAsset(amount).Symbol.Code), Payer: to, Value: bal}}
	return tx, rows
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func fastClient(url string, opts ...ship.Option) *ship.Client {
	return ship.NewClient(url, append([]ship.Option{ship.WithBackoff(time.Millisecond, 10*time.Millisecond),
		ship.WithStallTimeout(2 * time.Second), ship.WithMaxReconnects(50)}, opts...)...)
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
