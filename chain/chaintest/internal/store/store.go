package store

import (
	"cmp"
	"slices"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// The chain's state: contract tables as nodeos keeps them. A table (code,
// scope, name) holds primary rows (key_value_object: primary key, bytes,
// payer) and secondary index objects of the five index types (primary key,
// key, payer); CDT's multi_index keeps each secondary index in a table of
// its own, named after the primary table with the index number in the low
// four bits. A table exists while it holds anything, and is removed with
// its last row, as nodeos removes it. Versioned so that every block's state
// stays readable (the state service serves tables as of any block).
//
// PutRow, RemoveRow, PutSec and RemoveSec are the only writes.

// TableID names a table: the contract, the scope and the table name.
type TableID struct {
	Code, Scope, Table antelope.Name
}

// Row is a primary row; immutable once stored: a change stores a new row.
type Row struct {
	PK    uint64
	Data  []byte
	Payer antelope.Name
}

// SecRow is a secondary index object; immutable once stored.
type SecRow struct {
	PK    uint64
	Key   antelope.TableKey
	Payer antelope.Name
}

// NumKinds is the number of secondary index types (wasm.IndexKind).
const NumKinds = 5

// Table is one table's rows and index objects. A Table a snapshot shares
// is Frozen: Writable copies it before a change.
type Table struct {
	Frozen bool // shared with a snapshot: copy before writing
	Payer  antelope.Name
	// payerUnknown: a forked table whose payer the live chain could not
	// tell (payer is a guess); removing it cannot be billed right.
	PayerUnknown bool
	Rows         map[uint64]*Row
	Sec          [NumKinds]map[uint64]*SecRow
	order        []*Row // rows by primary key, until the next write
	secOrder     [NumKinds][]*SecRow
}

func (t *Table) count() int {
	n := len(t.Rows)
	for _, s := range t.Sec {
		n += len(s)
	}
	return n
}

// DB is the state's tables, at one moment: the chain's current one, a
// block's snapshot (history), or a transaction's undo point.
type DB struct {
	Tables map[TableID]*Table
	// lazy fills a forked chain's tables the first time they are looked
	// up (internal/fork's fork.State); nil for a chain that is no fork.
	Lazy Filler
}

// Filler fetches a forked chain's tables into the store the first time
// they are looked up: FillTable for any lookup of a table, FillIndex
// besides for a secondary index of kind k (it panics with the chain's
// refusal when the fork cannot rebuild that index). This is the seam the
// fork's lazy remote fill implements (fork.State, in internal/fork).
type Filler interface {
	FillTable(id TableID)
	FillIndex(id TableID, k wasm.IndexKind)
	// ListScopes is called before a contract's tables are listed, which a
	// fork cannot do from what it fetched.
	ListScopes(code antelope.Name)
}

// Table is the table id, filled first on a fork: every lookup of a table
// goes through it.
func (d *DB) Table(id TableID) *Table {
	if d.Lazy != nil {
		d.Lazy.FillTable(id)
	}
	return d.Tables[id]
}

// Index is Table for a lookup of a secondary index of kind k.
func (d *DB) Index(id TableID, k wasm.IndexKind) *Table {
	if d.Lazy != nil {
		d.Lazy.FillIndex(id, k)
	}
	return d.Tables[id]
}

// New returns an empty store.
func New() *DB { return &DB{Tables: map[TableID]*Table{}} }

// Snapshot freezes the current tables and returns a view of them that
// later writes do not change.
func (d *DB) Snapshot() *DB {
	s := &DB{Tables: make(map[TableID]*Table, len(d.Tables)), Lazy: d.Lazy}
	for id, t := range d.Tables {
		t.Frozen = true
		s.Tables[id] = t
	}
	return s
}

// Restore makes the state what snap was (a failed transaction's changes
// are dropped).
func (d *DB) Restore(snap *DB) {
	d.Tables = make(map[TableID]*Table, len(snap.Tables))
	for id, t := range snap.Tables {
		d.Tables[id] = t
	}
}

// Get returns the primary row pk of table id, nil if none.
func (d *DB) Get(id TableID, pk uint64) *Row {
	if t := d.Table(id); t != nil {
		return t.Rows[pk]
	}
	return nil
}

// GetSec returns the index object of kind k for primary key pk in index
// table id, nil if none.
func (d *DB) GetSec(id TableID, k wasm.IndexKind, pk uint64) *SecRow {
	if t := d.Index(id, k); t != nil {
		return t.Sec[k][pk]
	}
	return nil
}

// Writable returns the table to change, copying it if a snapshot holds it
// and creating it (paid by payer) if absent; created says it was.
func (d *DB) Writable(id TableID, payer antelope.Name) (t *Table, created bool) {
	t = d.Table(id)
	switch {
	case t == nil:
		t = &Table{Payer: payer, Rows: map[uint64]*Row{}}
		d.Tables[id] = t
		created = true
	case t.Frozen:
		c := &Table{Payer: t.Payer, PayerUnknown: t.PayerUnknown, Rows: make(map[uint64]*Row, len(t.Rows))}
		for k, r := range t.Rows {
			c.Rows[k] = r
		}
		for k, s := range t.Sec {
			if s != nil {
				c.Sec[k] = make(map[uint64]*SecRow, len(s))
				for pk, r := range s {
					c.Sec[k][pk] = r
				}
			}
		}
		t = c
		d.Tables[id] = t
	}
	return t, created
}

// PutRow stores a primary row (new or replacing the one with its key); the
// table is created, paid by r.Payer, if it does not exist.
func (d *DB) PutRow(id TableID, r *Row) (tableCreated bool) {
	t, created := d.Writable(id, r.Payer)
	t.Rows[r.PK] = r
	t.order = nil
	return created
}

// RemoveRow removes a primary row, and the table with its last row: the
// table's payer is returned when it was.
func (d *DB) RemoveRow(id TableID, pk uint64) (tableRemoved bool, tablePayer antelope.Name) {
	if d.Get(id, pk) == nil {
		return false, 0
	}
	t, _ := d.Writable(id, 0)
	delete(t.Rows, pk)
	t.order = nil
	return d.dropIfEmpty(id, t)
}

// PutSec stores a secondary index object (in a table of its own, or in a
// primary table: CDT's first index shares its table's name).
func (d *DB) PutSec(id TableID, k wasm.IndexKind, s *SecRow) (tableCreated bool) {
	t, created := d.Writable(id, s.Payer)
	if t.Sec[k] == nil {
		t.Sec[k] = map[uint64]*SecRow{}
	}
	t.Sec[k][s.PK] = s
	t.secOrder[k] = nil
	return created
}

// RemoveSec removes a secondary index object, and the table with its last.
func (d *DB) RemoveSec(id TableID, k wasm.IndexKind, pk uint64) (tableRemoved bool, tablePayer antelope.Name) {
	if d.GetSec(id, k, pk) == nil {
		return false, 0
	}
	t, _ := d.Writable(id, 0)
	delete(t.Sec[k], pk)
	t.secOrder[k] = nil
	return d.dropIfEmpty(id, t)
}

func (d *DB) dropIfEmpty(id TableID, t *Table) (bool, antelope.Name) {
	if t.count() > 0 {
		return false, 0
	}
	delete(d.Tables, id) // nodeos drops an empty table (and its scope)
	if t.PayerUnknown {
		return true, 0 // no account: refundTable refuses it
	}
	return true, t.Payer
}

// Primary returns a table's rows by primary key (the caller must not
// change the slice).
func (d *DB) Primary(id TableID) []*Row {
	t := d.Table(id)
	if t == nil {
		return nil
	}
	if t.order == nil {
		rows := make([]*Row, 0, len(t.Rows))
		for _, r := range t.Rows {
			rows = append(rows, r)
		}
		slices.SortFunc(rows, func(a, b *Row) int { return cmp.Compare(a.PK, b.PK) })
		t.order = rows
	}
	return t.order
}

// Secondary returns a table's objects of one index type by key, then
// primary key.
func (d *DB) Secondary(id TableID, k wasm.IndexKind) []*SecRow {
	t := d.Index(id, k)
	if t == nil {
		return nil
	}
	if t.secOrder[k] == nil {
		objs := make([]*SecRow, 0, len(t.Sec[k]))
		for _, s := range t.Sec[k] {
			objs = append(objs, s)
		}
		slices.SortFunc(objs, CompareSec)
		t.secOrder[k] = objs
	}
	return t.secOrder[k]
}

// CompareSec orders index objects as nodeos does: by key, then primary key.
func CompareSec(a, b *SecRow) int {
	if c := a.Key.Compare(b.Key); c != 0 { // as nodeos orders one index's keys
		return c
	}
	return cmp.Compare(a.PK, b.PK)
}

// Sorted returns a table's rows in the order of an index position (1 the
// primary key; 2, 3… the secondary indexes, read from their own tables, as
// get_table_rows reads them), leaving out index objects without a row.
func (d *DB) Sorted(id TableID, index int) []*Row {
	if index <= 1 {
		return d.Primary(id)
	}
	idxID := IndexTable(id, index)
	t := d.Table(idxID)
	if t == nil {
		return nil
	}
	var out []*Row
	for k := range t.Sec {
		for _, s := range d.Secondary(idxID, wasm.IndexKind(k)) {
			if r := d.Get(id, s.PK); r != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// IndexTable is the table of a secondary index position (2, 3…): CDT's
// name for it, the primary table's with index-2 in the low four bits (so
// the first secondary index is in the primary table itself, as nodeos
// keeps its objects beside the rows).
func IndexTable(id TableID, index int) TableID {
	id.Table = antelope.Name(uint64(id.Table)&^0xF | uint64(index-2)&0xF)
	return id
}

// KindOf is the index type holding keys of type t.
func KindOf(t antelope.IndexKeyType) wasm.IndexKind {
	switch t {
	case antelope.IndexI128:
		return wasm.Idx128
	case antelope.IndexI256, antelope.IndexSHA256, antelope.IndexRipemd160:
		return wasm.Idx256
	case antelope.IndexFloat64:
		return wasm.IdxDouble
	case antelope.IndexFloat128:
		return wasm.IdxLongDouble
	}
	return wasm.Idx64
}

// Scopes lists (scope, table) pairs of a contract in nodeos's order.
func (d *DB) Scopes(code antelope.Name) []TableID {
	if d.Lazy != nil {
		d.Lazy.ListScopes(code)
	}
	var out []TableID
	for id := range d.Tables {
		if id.Code == code {
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b TableID) int {
		switch {
		case a.Scope != b.Scope:
			return cmp.Compare(uint64(a.Scope), uint64(b.Scope))
		}
		return cmp.Compare(uint64(a.Table), uint64(b.Table))
	})
	return out
}
