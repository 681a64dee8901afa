package exec

import (
	"github.com/antelopego/abigen/antelope"
)

// Handler is a contract written in Go as execution calls it: Handler
// is its public face (handler.go).
type Handler func(x *Context) error

// Context is what a Go contract works with, as execution gives it: the
// action under way at its receiver. Context (handler.go) is its public
// face; the methods that read the action or the receiver are given them by
// Context, whose fields a handler sees.
type Context applyContext

func (x *Context) apply() *applyContext { return (*applyContext)(x) }

// Action is the action under way.
func (x *Context) Action() *antelope.Action { return x.apply().act() }

// Receiver is the account whose handler runs.
func (x *Context) Receiver() antelope.Name { return x.receiver }

// HasAuth reports whether the action carries account's authority.
func (x *Context) HasAuth(account antelope.Name) bool { return x.apply().hasAuth(account) }

// RequireAuth fails with missing_auth_exception unless the action carries
// account's authority.
func (x *Context) RequireAuth(account antelope.Name) error { return x.apply().requireAuth(account) }

// Assert fails with eosio_assert_message_exception and msg unless ok.
func (x *Context) Assert(ok bool, msg string) error {
	if ok {
		return nil
	}
	return ErrAssert(msg)
}

// IsAccount reports whether the account exists.
func (x *Context) IsAccount(account antelope.Name) bool { return x.trx.c.Account(account) != nil }

// RequireRecipient notifies account of this action.
func (x *Context) RequireRecipient(account antelope.Name) {
	if err := x.apply().requireRecipient(account); err != nil && x.err == nil {
		x.err = err
	}
}

// SendInline queues an inline action.
func (x *Context) SendInline(a antelope.Action) error { return x.apply().sendInline(a, false) }

// Return sets the action's return value: v packed.
func (x *Context) Return(v antelope.BinaryAppender) error {
	b, err := v.AppendBinary(nil)
	if err != nil {
		return err
	}
	return x.apply().SetActionReturnValue(b)
}

// Print appends to the action's console output.
func (x *Context) Print(s string) { x.apply().Print(s) }

// GetFrom reads a row of a contract's table.
func (x *Context) GetFrom(code, scope, table antelope.Name, pk uint64) (data []byte, payer antelope.Name, found bool) {
	r := x.trx.c.DB.Get(tableID{Code: code, Scope: scope, Table: table}, pk)
	if r == nil {
		return nil, 0, false
	}
	return r.Data, r.Payer, true
}

// Rows returns the primary keys of a table of receiver's, in order.
func (x *Context) Rows(receiver, scope, table antelope.Name) []uint64 {
	rows := x.trx.c.DB.Primary(tableID{Code: receiver, Scope: scope, Table: table})
	out := make([]uint64, len(rows))
	for i, r := range rows {
		out[i] = r.PK
	}
	return out
}

// Set stores a row of a table of receiver's contract (Context.Set).
func (x *Context) Set(receiver, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) error {
	ct := x.trx.c.Contract(receiver)
	if ct == nil || !ct.Tables[table] {
		return ErrActionValidate("table " + table.String() + " is not in the ABI of " + receiver.String())
	}
	if err := ct.indexes[table].check(secondary); err != nil {
		return ErrActionValidate("table " + table.String() + " of " + receiver.String() + ": " + err.Error())
	}
	return x.apply().setRow(scope, table, pk, append([]byte(nil), data...), payer, secondary)
}

// Delete removes a row of the receiver's table and its secondary index
// entries (nothing if it is absent), refunding their RAM.
func (x *Context) Delete(scope, table antelope.Name, pk uint64) {
	if err := x.apply().deleteRow(scope, table, pk); err != nil && x.err == nil {
		x.err = err
	}
}

// Decode unpacks act's payload into v.
func (x *Context) Decode(act *antelope.Action, v antelope.BinaryDecodable) error {
	d := antelope.NewDecoder(act.Data)
	if err := v.DecodeBinary(d); err != nil {
		return ErrActionValidate("decoding the data of " + act.Name.String() + ": " + err.Error())
	}
	if err := d.Finish(); err != nil {
		return ErrActionValidate("decoding the data of " + act.Name.String() + ": " + err.Error())
	}
	return nil
}
