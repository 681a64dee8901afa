package blocklog

import (
	"cmp"
	"encoding/binary"
	"slices"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
	"github.com/antelopego/abigen/ship/protocol"
)

// A block's table deltas, as spring's create_deltas writes them from the
// block's undo session: per state-history table, the rows modified (their
// new value), then those removed (their old value), then those created.
// The contract tables come from comparing the state before and after the
// block (the store's snapshots: tables and rows are immutable once stored,
// so an unchanged one is the same pointer): a row written and erased
// within the block is no change, as in the undo session. The account rows
// come from the block's record.

// AccountChange is an account created, or given an ABI, in a block (an
// account delta).
type AccountChange struct {
	Name    antelope.Name
	Created time.Time
	ABI     []byte // packed, as on chain; empty: none
	IsNew   bool
}

// indexDeltaNames are the state-history tables of the five secondary index
// types, by wasm.IndexKind.
var indexDeltaNames = [store.NumKinds]string{wasm.Idx64: "contract_index64", wasm.Idx128: "contract_index128",
	wasm.Idx256: "contract_index256", wasm.IdxDouble: "contract_index_double", wasm.IdxLongDouble: "contract_index_long_double"}

// deltaRows is one state-history table's changes in a block.
type deltaRows struct {
	modified, removed, created []protocol.Row
}

func (d *deltaRows) add(present, isNew bool, data []byte) {
	r := protocol.Row{Present: present, Data: data}
	switch {
	case !present:
		d.removed = append(d.removed, r)
	case isNew:
		d.created = append(d.created, r)
	default:
		d.modified = append(d.modified, r)
	}
}

func (d *deltaRows) delta(name string) (*protocol.TableDelta, bool) {
	rows := slices.Concat(d.modified, d.removed, d.created)
	if len(rows) == 0 {
		return nil, false
	}
	return &protocol.TableDelta{Value: &protocol.TableDeltaV0{Name: name, Rows: rows}}, true
}

// Deltas is a block's table_delta[]: its account changes, and the
// contract tables, rows and index objects that differ between before (the
// state at the end of the previous block) and after (at the end of this
// one).
func Deltas(before, after *store.DB, changes []AccountChange) []*protocol.TableDelta {
	var accounts, tables, rows deltaRows
	var indexes [store.NumKinds]deltaRows
	for _, a := range changes {
		v := protocol.Account{Value: &protocol.AccountV0{Name: a.Name, CreationDate: Timestamp(a.Created), ABI: a.ABI}}
		accounts.add(true, a.IsNew, MustMarshal(&v))
	}
	for _, id := range changedTables(before, after) {
		old, cur := before.Tables[id], after.Tables[id]
		switch {
		case old == nil:
			tables.add(true, true, contractTable(id, cur))
		case cur == nil:
			tables.add(false, false, contractTable(id, old))
		}
		diffRows(&rows, id, old, cur)
		for k := range indexes {
			diffIndex(&indexes[k], wasm.IndexKind(k), id, old, cur)
		}
	}
	var out []*protocol.TableDelta
	for _, d := range []struct {
		rows *deltaRows
		name string
	}{{&accounts, "account"}, {&tables, "contract_table"}, {&rows, "contract_row"}} {
		if td, ok := d.rows.delta(d.name); ok {
			out = append(out, td)
		}
	}
	for k := range indexes {
		if td, ok := indexes[k].delta(indexDeltaNames[k]); ok {
			out = append(out, td)
		}
	}
	return out
}

// changedTables lists the tables that differ between two states, by code,
// scope and name.
func changedTables(before, after *store.DB) []store.TableID {
	var ids []store.TableID
	for id, t := range after.Tables {
		if before.Tables[id] != t {
			ids = append(ids, id)
		}
	}
	for id := range before.Tables {
		if after.Tables[id] == nil {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareTableIDs)
	return ids
}

func compareTableIDs(a, b store.TableID) int {
	if c := cmp.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Scope, b.Scope); c != 0 {
		return c
	}
	return cmp.Compare(a.Table, b.Table)
}

func contractTable(id store.TableID, t *store.Table) []byte {
	v := protocol.ContractTable{Value: &protocol.ContractTableV0{Code: id.Code, Scope: id.Scope, Table: id.Table, Payer: t.Payer}}
	return MustMarshal(&v)
}

// changedKeys lists the primary keys whose objects differ between two
// maps (either may be nil), in order.
func changedKeys[V comparable](old, cur map[uint64]V) []uint64 {
	var keys []uint64
	for pk, v := range cur {
		if o, ok := old[pk]; !ok || o != v {
			keys = append(keys, pk)
		}
	}
	for pk := range old {
		if _, ok := cur[pk]; !ok {
			keys = append(keys, pk)
		}
	}
	slices.SortFunc(keys, cmp.Compare[uint64])
	return keys
}

func diffRows(out *deltaRows, id store.TableID, old, cur *store.Table) {
	var before, after map[uint64]*store.Row
	if old != nil {
		before = old.Rows
	}
	if cur != nil {
		after = cur.Rows
	}
	for _, pk := range changedKeys(before, after) {
		r, present := after[pk]
		if !present {
			r = before[pk]
		}
		v := protocol.ContractRow{Value: &protocol.ContractRowV0{Code: id.Code, Scope: id.Scope, Table: id.Table,
			PrimaryKey: r.PK, Payer: r.Payer, Value: NonNil(r.Data)}}
		out.add(present, before[pk] == nil, MustMarshal(&v))
	}
}

func diffIndex(out *deltaRows, k wasm.IndexKind, id store.TableID, old, cur *store.Table) {
	var before, after map[uint64]*store.SecRow
	if old != nil {
		before = old.Sec[k]
	}
	if cur != nil {
		after = cur.Sec[k]
	}
	for _, pk := range changedKeys(before, after) {
		s, present := after[pk]
		if !present {
			s = before[pk]
		}
		out.add(present, before[pk] == nil, indexRow(k, id, s))
	}
}

// indexRow is a secondary index object as state history packs it: the
// key as nodeos holds it (idx256: its two 128-bit words, each big-endian;
// the floats: their bits).
func indexRow(k wasm.IndexKind, id store.TableID, s *store.SecRow) []byte {
	key := s.Key.Bytes()
	var v antelope.BinaryAppender
	switch k {
	case wasm.Idx64:
		v = &protocol.ContractIndex64{Value: &protocol.ContractIndex64V0{Code: id.Code, Scope: id.Scope, Table: id.Table,
			PrimaryKey: s.PK, Payer: s.Payer, SecondaryKey: s.Key.Uint64()}}
	case wasm.Idx128:
		v = &protocol.ContractIndex128{Value: &protocol.ContractIndex128V0{Code: id.Code, Scope: id.Scope, Table: id.Table,
			PrimaryKey: s.PK, Payer: s.Payer, SecondaryKey: antelope.Uint128{Hi: binary.BigEndian.Uint64(key[16:24]),
				Lo: binary.BigEndian.Uint64(key[24:])}}}
	case wasm.Idx256:
		v = &protocol.ContractIndex256{Value: &protocol.ContractIndex256V0{Code: id.Code, Scope: id.Scope, Table: id.Table,
			PrimaryKey: s.PK, Payer: s.Payer, SecondaryKey: antelope.Checksum256(key)}}
	case wasm.IdxDouble:
		v = &protocol.ContractIndexDouble{Value: &protocol.ContractIndexDoubleV0{Code: id.Code, Scope: id.Scope, Table: id.Table,
			PrimaryKey: s.PK, Payer: s.Payer, SecondaryKey: s.Key.Float64()}}
	default:
		var f antelope.Float128
		copy(f[:], key[16:])
		v = &protocol.ContractIndexLongDouble{Value: &protocol.ContractIndexLongDoubleV0{Code: id.Code, Scope: id.Scope,
			Table: id.Table, PrimaryKey: s.PK, Payer: s.Payer, SecondaryKey: f}}
	}
	return MustMarshal(v)
}
