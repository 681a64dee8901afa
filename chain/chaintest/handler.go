package chaintest

import (
	"runtime/debug"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
)

// Handler is a contract written in Go: it is called for each action sent to
// its account (and for each notification of an action it is a recipient
// of, with ctx.Receiver its own account), and changes the chain through
// ctx. An error fails the whole transaction; ctx.Assert gives the error a
// contract's eosio_assert would.
type Handler func(ctx *Context) error

// Context is what a Handler works with: the action, its receiver, the
// contract's tables, authority checks, notifications, inline actions, and
// the action's return value. It follows nodeos's rules as a wasm contract
// does: RAM billing and its restrictions, notifications and inline actions
// depth-first.
type Context struct {
	Action   antelope.Action // the action; Data is its packed payload
	Receiver antelope.Name   // the account whose handler runs (the contract, or a notified account)

	x *exec.Context // execution's side of it
}

// Code is the contract the action is for (Action.Account).
func (x *Context) Code() antelope.Name { return x.Action.Account }

// HasAuth reports whether the action carries account's authority.
func (x *Context) HasAuth(account antelope.Name) bool { return x.x.HasAuth(account) }

// RequireAuth fails with missing_auth_exception unless the action carries
// account's authority.
func (x *Context) RequireAuth(account antelope.Name) error { return x.x.RequireAuth(account) }

// Assert fails with eosio_assert_message_exception and msg unless ok, as a
// contract's check(ok, msg) does.
func (x *Context) Assert(ok bool, msg string) error { return x.x.Assert(ok, msg) }

// IsAccount reports whether the account exists.
func (x *Context) IsAccount(account antelope.Name) bool { return x.x.IsAccount(account) }

// RequireRecipient notifies account of this action: its contract (if it
// has one) runs after this one with Receiver set to it, once however often
// it is notified.
func (x *Context) RequireRecipient(account antelope.Name) { x.x.RequireRecipient(account) }

// SendInline queues an inline action, executed (with its own
// notifications and inline actions) after this action and its
// notifications, as nodeos does. Its authorizations must be satisfied by
// the receiver's eosio.code permission (an account's active permission
// lists it to let the contract act for it; NewAccount and SetContract add
// it for the account's own contract), unless the receiver is privileged.
func (x *Context) SendInline(a antelope.Action) error { return x.x.SendInline(a) }

// Return sets the action's return value (ABI 1.2 action results): v packed.
func (x *Context) Return(v antelope.BinaryAppender) error { return x.x.Return(v) }

// Print appends to the action's console output.
func (x *Context) Print(s string) { x.x.Print(s) }

// Get reads a row of the receiver's table: the packed row, its payer, and
// whether it exists.
func (x *Context) Get(scope, table antelope.Name, pk uint64) (data []byte, payer antelope.Name, found bool) {
	return x.GetFrom(x.Receiver, scope, table, pk)
}

// GetFrom reads a row of another contract's table.
func (x *Context) GetFrom(code, scope, table antelope.Name, pk uint64) (data []byte, payer antelope.Name, found bool) {
	return x.x.GetFrom(code, scope, table, pk)
}

// GetRow reads the row with primary key pk of the receiver's table in
// scope, decoded into the table's generated row type, with its payer and
// whether it exists: Get, typed. table is the generated descriptor
// (eosiotoken.TableAccounts), which gives the table's name and row type;
// its Code is not used, as a handler reads its own tables wherever it is
// deployed. A row that does not decode as that type fails the transaction.
//
//	acct, payer, found, err := chaintest.GetRow(ctx, eosiotoken.TableAccounts, owner, uint64(sym.Code))
func GetRow[T any, P interface {
	*T
	antelope.BinaryDecodable
}](x *Context, table antelope.TableOf[T, P], scope antelope.Name, pk uint64) (row T, payer antelope.Name, found bool, err error) {
	name, err := antelope.ParseName(table.Name)
	if err != nil {
		return row, 0, false, exec.ErrActionValidate("table " + table.Name + ": not a name a contract can use on chain")
	}
	data, payer, found := x.Get(scope, name, pk)
	if !found {
		return row, 0, false, nil
	}
	d := antelope.NewDecoder(data)
	err = P(&row).DecodeBinary(d)
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		var zero T
		return zero, payer, true, exec.ErrActionValidate("table " + table.Name + " row " + strconv.FormatUint(pk, 10) +
			" in scope " + scope.String() + ": " + err.Error())
	}
	return row, payer, true, nil
}

// Rows returns the primary keys of a table of the receiver's, in order.
func (x *Context) Rows(scope, table antelope.Name) []uint64 {
	return x.x.Rows(x.Receiver, scope, table)
}

// Set stores a row of the receiver's table (emplace or modify): its packed
// bytes, the account paying for its RAM (0: the row's payer, or the
// receiver for a new row), and its secondary index keys in the order of the
// contract's indexes, each stored in its index's table as CDT's
// multi_index stores it. The table must be in the ABI; where the ABI's
// key_names and key_types describe the indexes (the first entry the primary
// key), the keys must match them in number and type, or the transaction
// fails naming the table and the index: a key left out would drop the row
// from that index's ranges. RAM is billed as nodeos bills it, and refused
// as nodeos refuses it: to another account without its authority on the
// action, or in a notification.
func (x *Context) Set(scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) error {
	return x.x.Set(x.Receiver, scope, table, pk, data, payer, secondary...)
}

// SetValue is Set with the row packed from v (a generated row type).
func (x *Context) SetValue(scope, table antelope.Name, pk uint64, v antelope.BinaryAppender, payer antelope.Name, secondary ...antelope.TableKey) error {
	data, err := v.AppendBinary(nil)
	if err != nil {
		return err
	}
	return x.Set(scope, table, pk, data, payer, secondary...)
}

// Delete removes a row of the receiver's table and its secondary index
// entries (nothing if it is absent), refunding their RAM.
func (x *Context) Delete(scope, table antelope.Name, pk uint64) { x.x.Delete(scope, table, pk) }

// Decode unpacks the action's payload into v (a generated action type).
func (x *Context) Decode(v antelope.BinaryDecodable) error { return x.x.Decode(&x.Action, v) }

// adaptHandler is h as execution calls it: the Context a handler sees
// wraps execution's. A panic is the transaction's failure, as a trap is a
// wasm contract's: recovered here, it is answered once like any refusal
// and its writes are undone, instead of dropping the connection (which a
// client would retry) or killing the test binary.
func adaptHandler(h Handler) exec.Handler {
	if h == nil {
		return nil
	}
	return func(x *exec.Context) (err error) {
		ctx := &Context{Action: *x.Action(), Receiver: x.Receiver(), x: x}
		defer func() {
			if r := recover(); r != nil {
				err = exec.ErrHandlerPanic(ctx.Receiver, ctx.Action.Name, r, debug.Stack())
			}
		}()
		return h(ctx)
	}
}
