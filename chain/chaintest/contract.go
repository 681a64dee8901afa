package chaintest

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// Handler is a contract written in Go: it is called for each action sent to
// its account (and for each notification of an action it is a recipient
// of, with ctx.Receiver its own account), and changes the chain through
// ctx. An error fails the whole transaction; ctx.Assert gives the error a
// contract's eosio_assert would.
type Handler func(ctx *Context) error

type contract struct {
	abi       []byte // the ABI JSON (nil: none set)
	packedABI []byte // the ABI as the chain stores it (nil: packed from abi when asked)
	tables    map[antelope.Name]bool
	indexes   map[antelope.Name]tableIndexes // the tables' key_names and key_types
	handler   Handler                        // a contract written in Go; or
	module    *wasm.Module
	code      []byte // its WebAssembly
	codeHash  antelope.Checksum256
}

// SetContract deploys a contract at account: its ABI (the JSON the
// generated package embeds as ABIJSON) and its handler. The account is
// created (with no keys) if it does not exist. The handler and its ABI
// are billed no RAM; wasm code and an ABI they replace are refunded.
func (c *Chain) SetContract(acct antelope.Name, abiJSON []byte, handler Handler) error {
	var abi struct {
		Tables []struct {
			Name     string   `json:"name"`
			KeyNames []string `json:"key_names"`
			KeyTypes []string `json:"key_types"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return fmt.Errorf("chaintest: the ABI of %s: %v", acct, err)
	}
	ct := &contract{abi: abiJSON, tables: map[antelope.Name]bool{}, indexes: map[antelope.Name]tableIndexes{}, handler: handler}
	for _, t := range abi.Tables {
		n, err := antelope.ParseName(t.Name)
		if err != nil {
			return fmt.Errorf("chaintest: the ABI of %s: table %q: %v", acct, t.Name, err)
		}
		ct.tables[n] = true
		ct.indexes[n] = tableIndexes{names: t.KeyNames, types: t.KeyTypes}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.account(acct) == nil {
		c.accounts[acct] = newAccount(acct, emptyAuthority(), codeAuthority(acct), c.headTime())
	}
	// Wasm code and a packed ABI replaced by a Go handler are refunded, as
	// setcode and setabi refund what they replace (the handler and its ABI
	// are the test's, billed nothing).
	c.account(acct).ramUsage -= c.codeRAM(acct)
	c.contracts[acct] = ct
	// The state service keeps every version by the block it was set in: the
	// next block.
	c.abis[acct] = append(c.abis[acct], abiVersion{block: c.nextBlockNum(), json: abiJSON})
	c.produce(nil)
	return nil
}

// Context is what a Handler works with: the action, its receiver, the
// contract's tables, authority checks, notifications, inline actions, and
// the action's return value. It follows nodeos's rules as a wasm contract
// does: RAM billing and its restrictions, notifications and inline actions
// depth-first.
type Context struct {
	Action   antelope.Action // the action; Data is its packed payload
	Receiver antelope.Name   // the account whose handler runs (the contract, or a notified account)

	chain *engine
	apply *applyContext
}

// Code is the contract the action is for (Action.Account).
func (x *Context) Code() antelope.Name { return x.Action.Account }

// HasAuth reports whether the action carries account's authority.
func (x *Context) HasAuth(account antelope.Name) bool { return x.apply.hasAuth(account) }

// RequireAuth fails with missing_auth_exception unless the action carries
// account's authority.
func (x *Context) RequireAuth(account antelope.Name) error { return x.apply.requireAuth(account) }

// Assert fails with eosio_assert_message_exception and msg unless ok, as a
// contract's check(ok, msg) does.
func (x *Context) Assert(ok bool, msg string) error {
	if ok {
		return nil
	}
	return errAssert(msg)
}

// IsAccount reports whether the account exists.
func (x *Context) IsAccount(account antelope.Name) bool { return x.chain.account(account) != nil }

// RequireRecipient notifies account of this action: its contract (if it
// has one) runs after this one with Receiver set to it, once however often
// it is notified.
func (x *Context) RequireRecipient(account antelope.Name) {
	if err := x.apply.requireRecipient(account); err != nil && x.apply.err == nil {
		x.apply.err = err
	}
}

// SendInline queues an inline action, executed (with its own
// notifications and inline actions) after this action and its
// notifications, as nodeos does. Its authorizations must be satisfied by
// the receiver's eosio.code permission (an account's active permission
// lists it to let the contract act for it; NewAccount and SetContract add
// it for the account's own contract), unless the receiver is privileged.
func (x *Context) SendInline(a antelope.Action) error { return x.apply.sendInline(a, false) }

// Return sets the action's return value (ABI 1.2 action results): v packed.
func (x *Context) Return(v antelope.BinaryAppender) error {
	b, err := v.AppendBinary(nil)
	if err != nil {
		return err
	}
	return x.apply.SetActionReturnValue(b)
}

// Print appends to the action's console output.
func (x *Context) Print(s string) { x.apply.Print(s) }

// Get reads a row of the receiver's table: the packed row, its payer, and
// whether it exists.
func (x *Context) Get(scope, table antelope.Name, pk uint64) (data []byte, payer antelope.Name, found bool) {
	return x.GetFrom(x.Receiver, scope, table, pk)
}

// GetFrom reads a row of another contract's table.
func (x *Context) GetFrom(code, scope, table antelope.Name, pk uint64) (data []byte, payer antelope.Name, found bool) {
	r := x.chain.db.Get(tableID{Code: code, Scope: scope, Table: table}, pk)
	if r == nil {
		return nil, 0, false
	}
	return r.Data, r.Payer, true
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
		return row, 0, false, errActionValidate("table " + table.Name + ": not a name a contract can use on chain")
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
		return zero, payer, true, errActionValidate("table " + table.Name + " row " + strconv.FormatUint(pk, 10) +
			" in scope " + scope.String() + ": " + err.Error())
	}
	return row, payer, true, nil
}

// Rows returns the primary keys of a table of the receiver's, in order.
func (x *Context) Rows(scope, table antelope.Name) []uint64 {
	rows := x.chain.db.Primary(tableID{Code: x.Receiver, Scope: scope, Table: table})
	out := make([]uint64, len(rows))
	for i, r := range rows {
		out[i] = r.PK
	}
	return out
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
	ct := x.chain.contract(x.Receiver)
	if ct == nil || !ct.tables[table] {
		return errActionValidate("table " + table.String() + " is not in the ABI of " + x.Receiver.String())
	}
	if err := ct.indexes[table].check(secondary); err != nil {
		return errActionValidate("table " + table.String() + " of " + x.Receiver.String() + ": " + err.Error())
	}
	return x.apply.setRow(scope, table, pk, append([]byte(nil), data...), payer, secondary)
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
func (x *Context) Delete(scope, table antelope.Name, pk uint64) {
	if err := x.apply.deleteRow(scope, table, pk); err != nil && x.apply.err == nil {
		x.apply.err = err
	}
}

// Decode unpacks the action's payload into v (a generated action type).
func (x *Context) Decode(v antelope.BinaryDecodable) error {
	d := antelope.NewDecoder(x.Action.Data)
	if err := v.DecodeBinary(d); err != nil {
		return errActionValidate("decoding the data of " + x.Action.Name.String() + ": " + err.Error())
	}
	if err := d.Finish(); err != nil {
		return errActionValidate("decoding the data of " + x.Action.Name.String() + ": " + err.Error())
	}
	return nil
}

// SetTableRow stores a row directly, outside any transaction (a fixture),
// in the state of the next block. Its RAM is billed to payer as a
// contract's store would bill it (a replaced row refunded to its payer),
// so that the contract erasing it later refunds only what was billed; a
// fixture is not held to the RAM quota.
func (c *Chain) SetTableRow(code, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := tableID{Code: code, Scope: scope, Table: table}
	if old := c.db.Get(id, pk); old != nil {
		c.billFixture(old.Payer, -(int64(len(old.Data)) + billableRow))
	}
	if c.db.PutRow(id, &row{PK: pk, Data: append([]byte(nil), data...), Payer: payer}) {
		c.billFixture(payer, billableTable)
	}
	c.billFixture(payer, int64(len(data))+billableRow)
	for i, key := range secondary {
		sid, kind := store.IndexTable(id, i+2), store.KindOf(key.Type())
		if old := c.db.GetSec(sid, kind, pk); old != nil {
			c.billFixture(old.Payer, -billableSec[kind])
		}
		if c.db.PutSec(sid, kind, &secRow{PK: pk, Key: key, Payer: payer}) {
			c.billFixture(payer, billableTable)
		}
		c.billFixture(payer, billableSec[kind])
	}
}

// billFixture bills RAM to an account for state written outside a
// transaction (an account the chain does not know pays nothing).
func (c *engine) billFixture(account antelope.Name, delta int64) {
	if a := c.account(account); a != nil {
		a.ramUsage += delta
	}
}

// codeAuthority is an authority satisfied by the account's own contract
// (its eosio.code permission) only: the active permission of an account
// chaintest makes for a contract.
func codeAuthority(acct antelope.Name) chain.Authority {
	return chain.Authority{Threshold: 1, Accounts: []chain.PermissionLevelWeight{
		{Permission: antelope.PermissionLevel{Actor: acct, Permission: nameEosioCode}, Weight: 1}}}
}
