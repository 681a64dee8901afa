package ship_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// A chain of n blocks, block i holding a transfer of i units to bob on
// eosio.token and one on another contract with the same ABI.
func transferChain(t *testing.T, n int) *shiptest.Chain {
	chain := shiptest.NewChain()
	for i := 1; i <= n; i++ {
		amount := itoa4(i)
		tx, rows := transferTx(t, token, alice, bob, amount, "m")
		tx2, rows2 := transferTx(t, other, alice, bob, "9.0000 WAX", "fake")
		chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx2, tx}, Rows: append(rows2, rows...)})
	}
	return chain
}

func itoa4(i int) string { return fmt.Sprintf("%d.0000 WAX", i) }

func TestTypedActionsAndRows(t *testing.T) {
	chain := transferChain(t, 20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	stream := fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 21})
	var blocks, transfers, rows int
	var prev ship.Position
	for ev, err := range stream {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo != nil {
			t.Fatal("undo without a fork")
		}
		b := ev.Block
		blocks++
		if b.Num != prev.Num+1 || (prev.Num != 0 && b.Previous != prev.ID) {
			t.Fatalf("block %d does not follow %v", b.Num, prev)
		}
		prev = b.Position
		if b.Producer.String() != "eosio" {
			t.Errorf("producer %v", b.Producer)
		}
		for tr, err := range ship.Actions(b, eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			transfers++
			if tr.Data.To != bob || tr.Data.Quantity.String() != itoa4(int(b.Num)) || tr.Trace.IsNotification() {
				t.Errorf("block %d: %+v", b.Num, tr.Data)
			}
			if auth := tr.Trace.Authorization(); len(auth) != 1 || auth[0].Actor != alice {
				t.Errorf("auth %v", auth)
			}
		}
		n := 0
		for range ship.Actions(b, eosiotoken.Actions.Transfer, ship.WithNotifications()) {
			n++
		}
		if n != 3 {
			t.Errorf("with notifications: %d", n)
		}
		for r, err := range ship.Rows(b, eosiotoken.TableAccounts) {
			if err != nil {
				t.Fatal(err)
			}
			rows++
			if r.New == nil || r.Old != nil || r.Change.Scope != bob || r.New.Balance.String() != itoa4(int(b.Num)) {
				t.Errorf("row %+v", r)
			}
		}
		if c := ev.Cursor(); c.Last() != b.Position {
			t.Errorf("cursor %v, block %v", c.Last(), b.Position)
		}
	}
	if blocks != 20 || transfers != 20 || rows != 20 {
		t.Errorf("blocks %d transfers %d rows %d", blocks, transfers, rows)
	}
}

func TestFlatActions(t *testing.T) {
	chain := transferChain(t, 10)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	n := 0
	stream := fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 11})
	for ev, err := range ship.Actions(stream, eosiotoken.Actions.Transfer.In(other)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ev.Data.Memo != "fake" {
			t.Errorf("%+v", ev.Data)
		}
	}
	if n != 10 {
		t.Errorf("%d transfers", n)
	}
}

func TestStatus(t *testing.T) {
	chain := transferChain(t, 5)
	chain.SetLastIrreversible(3)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	st, err := fastClient(srv.URL).Status(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.Head.Num != 5 || st.LastIrreversible.Num != 3 || st.Protocol != "get_status_result_v1" || st.TraceEnd != 6 {
		t.Errorf("%+v", st)
	}
}

func TestDecodeErrorPolicy(t *testing.T) {
	chain := shiptest.NewChain()
	tx := shiptest.Transaction{Actions: []shiptest.Action{{Contract: token, Name: xfer, Data: []byte{1, 2, 3}}}}
	good, _ := transferTx(t, token, alice, bob, "1.0000 WAX", "")
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx, good}})
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	for _, c := range []struct {
		policy      ship.ErrorPolicy
		errs, items int
	}{{ship.Report, 1, 1}, {ship.Skip, 0, 1}, {ship.Stop, 1, 0}} {
		var errs, items int
		stream := fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 2})
		for _, err := range ship.Actions(stream, eosiotoken.Actions.Transfer, ship.OnDecodeError(c.policy)) {
			var ie *ship.ItemError
			if errors.As(err, &ie) {
				errs++
				if string(ie.Raw) != "\x01\x02\x03" || ie.Block.Num != 1 {
					t.Errorf("%+v", ie)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			items++
		}
		if errs != c.errs || items != c.items {
			t.Errorf("policy %d: %d errors, %d items", c.policy, errs, items)
		}
	}
}
