package exec

import (
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// nodeos shares one apply context (and so one iterator cache) between an
// action's receiver and the accounts it notifies; an inline action gets a
// context of its own. The real contracts rely on it: an iterator a
// notification receives is the one the contract handed out.
func TestIteratorsSharedAcrossNotifications(t *testing.T) {
	e := New(nil, Config{})
	code, alice := antelope.MustName("code"), antelope.MustName("alice")
	e.SetTableRow(code, code, antelope.MustName("t"), 1, []byte{1}, code)
	e.SetTableRow(code, code, antelope.MustName("t"), 2, []byte{2}, code)
	e.SetTableRow(code, alice, antelope.MustName("t"), 1, []byte{1}, code)
	e.Accounts[code] = NewAccount(code, EmptyAuthority(), EmptyAuthority(), time.Time{})
	e.Accounts[alice] = NewAccount(alice, EmptyAuthority(), EmptyAuthority(), time.Time{})
	tx := &antelope.SignedTransaction{}
	trx := &TrxContext{c: e, Tx: tx, ctx: t.Context()}
	act := antelope.Action{Account: code, Name: antelope.MustName("go")}
	ord, _ := trx.schedule(act, code, false, 0, 0)
	a := &applyContext{trx: trx, receiver: code, ordinal: ord, firstReceiverOrdinal: ord, notified: []notice{{code, ord}}}
	tbl := uint64(antelope.MustName("t"))
	it2 := a.FindI64(uint64(code), uint64(code), tbl, 2)
	it1 := a.FindI64(uint64(code), uint64(code), tbl, 1)
	end := a.EndI64(uint64(code), uint64(alice), tbl)
	if it2 != 0 || it1 != 1 || end != -3 { // code's table got -2 first
		t.Fatalf("iterators %d %d, end %d", it2, it1, end)
	}
	// The notified account continues the same numbering and sees the same
	// iterators for the same rows.
	if err := a.requireRecipient(alice); err != nil {
		t.Fatal(err)
	}
	a.receiver, a.ordinal = a.notified[1].receiver, a.notified[1].ordinal
	if got := a.FindI64(uint64(code), uint64(code), tbl, 1); got != 1 {
		t.Errorf("row 1 in the notification: %d", got)
	}
	if got := a.FindI64(uint64(code), uint64(alice), tbl, 1); got != 2 {
		t.Errorf("a new row in the notification: %d", got)
	}
	if next, pk, err := a.NextI64(it2); err != nil || next != -2 || pk != 0 {
		t.Errorf("next of the last row: %d %d %v", next, pk, err)
	}
	// Writing another contract's table from the notification is refused.
	if err := a.RemoveI64(it1); err == nil || err.Error() != "table_access_violation: db access violation" {
		t.Errorf("remove: %v", err)
	}
	// An inline action starts a cache of its own.
	ord2, _ := trx.schedule(act, code, false, ord, ord)
	b := &applyContext{trx: trx, receiver: code, ordinal: ord2, firstReceiverOrdinal: ord2}
	if got := b.FindI64(uint64(code), uint64(code), tbl, 1); got != 0 {
		t.Errorf("row 1 in an inline action: %d", got)
	}
	// nodeos's messages for the iterators that are not rows.
	for _, c := range []struct {
		it  int32
		msg string
	}{{-1, "invalid_table_iterator: invalid iterator"}, {-2, "table_operation_not_permitted: dereference of end iterator"},
		{99, "invalid_table_iterator: iterator out of range"}} {
		if _, err := b.GetI64(c.it); err == nil || err.Error() != c.msg {
			t.Errorf("get %d: %v", c.it, err)
		}
	}
	if _, _, err := b.PreviousI64(-7); err == nil || err.Error() != "invalid_table_iterator: not a valid end iterator" {
		t.Errorf("previous of an unknown end iterator: %v", err)
	}
}
