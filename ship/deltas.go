package ship

import (
	"strconv"

	"github.com/antelopego/abigen/antelope"
)

// RowChange is a change to a row of a contract table in one block. State
// history records the state at the end of the block, per row: a created or
// modified row carries its new value only (SHiP gives no old value for an
// update), a removed row (Present false) the value it had. Nothing ties a
// change to the action that made it, and a row created and erased in the
// same block does not appear. Value aliases the message: copy what you keep.
type RowChange struct {
	Block      *Block        // the block it is in
	Present    bool          // false: the row was removed, and Value is its old value
	Code       antelope.Name // the contract
	Scope      antelope.Name // the table's scope
	Table      antelope.Name // the table
	PrimaryKey uint64        // the row's primary key
	Payer      antelope.Name // the account paying for its RAM
	Value      []byte        // the packed row
}

// Delta is one row of any state-history table ("account", "permission",
// "contract_row", …), undecoded: Data is the variant the ABI names like the
// table, which protocol.DecodeTableRow(Table, Data) decodes.
type Delta struct {
	Block   *Block // the block it is in
	Table   string // the state-history table: "account", "contract_row", …
	Present bool   // false: the row was removed, and Data is its old value
	Data    []byte // the row, a variant named like Table
}

// tableNames interns the delta table names, so that reading one allocates
// nothing.
var tableNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"account", "account_metadata", "code", "contract_table", "contract_row",
		"contract_index64", "contract_index128", "contract_index256", "contract_index_double",
		"contract_index_long_double", "global_property", "generated_transaction", "protocol_state",
		"permission", "permission_link", "resource_limits", "resource_usage", "resource_limits_state",
		"resource_limits_ratio", "resource_limits_config"} {
		m[n] = n
	}
	return m
}()

// rowFilter is what a walk of contract rows keeps.
type rowFilter struct {
	code, table antelope.Name // 0: any
}

// walkDeltas calls fn for every row of every table delta.
func walkDeltas(p *protocolMap, b *Block, deltas []byte, fn func(table []byte, present bool, data []byte) bool) error {
	w := &wire{data: deltas, what: "deltas"}
	n := w.count(2)
	for range n {
		if v := w.varu32(); w.err == nil && member(p.tableDelta, v) != "table_delta_v0" {
			w.fail("table_delta variant " + strconv.Itoa(int(v)) + " is not one this client knows")
		}
		name := w.bytes()
		rows := w.count(2)
		for range rows {
			present := w.boolean()
			data := w.bytes()
			if w.err != nil {
				return w.err
			}
			if !fn(name, present, data) {
				return nil
			}
		}
		if w.err != nil {
			return w.err
		}
	}
	return w.end()
}

// walkRows calls fn for each contract_row change the filter keeps. The
// code and table of a row are its first bytes, so a row of another
// contract is skipped after reading 25 bytes.
func walkRows(p *protocolMap, b *Block, deltas []byte, f rowFilter, fn func(*RowChange) bool) error {
	var ferr error
	var r RowChange // one for the walk: a row of another contract allocates nothing
	err := walkDeltas(p, b, deltas, func(table []byte, present bool, data []byte) bool {
		if string(table) != "contract_row" {
			return true
		}
		w := wire{data: data, what: "contract_row"}
		if v := w.varu32(); w.err == nil && member(p.contractRow, v) != "contract_row_v0" {
			w.fail("contract_row variant " + strconv.Itoa(int(v)) + " is not one this client knows")
		}
		r = RowChange{Block: b, Present: present, Code: w.name()}
		if f.code != 0 && r.Code != f.code && w.err == nil {
			return true
		}
		r.Scope, r.Table = w.name(), w.name()
		if f.table != 0 && r.Table != f.table && w.err == nil {
			return true
		}
		r.PrimaryKey = w.u64()
		r.Payer = w.name()
		r.Value = w.bytes()
		if ferr = w.end(); ferr != nil {
			return false
		}
		return fn(&r)
	})
	if err != nil {
		return err
	}
	return ferr
}

// abiChange is a new ABI set on an account, from an account delta.
type abiChange struct {
	account antelope.Name
	abi     []byte // packed; empty: the ABI was cleared
}

// abiChanges reads the account deltas of a block.
func abiChanges(p *protocolMap, b *Block, deltas []byte, fn func(abiChange)) error {
	var ferr error
	err := walkDeltas(p, b, deltas, func(table []byte, present bool, data []byte) bool {
		if string(table) != "account" || !present {
			return true
		}
		w := wire{data: data, what: "account"}
		if v := w.varu32(); w.err == nil && member(p.account, v) != "account_v0" {
			w.fail("account variant " + strconv.Itoa(int(v)) + " is not one this client knows")
		}
		c := abiChange{account: w.name()}
		w.u32() // creation_date
		c.abi = w.bytes()
		if ferr = w.end(); ferr != nil {
			return false
		}
		fn(c)
		return true
	})
	if err != nil {
		return err
	}
	return ferr
}

func itoa(i int) string { return strconv.Itoa(i) }
