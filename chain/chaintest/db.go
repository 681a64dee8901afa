package chaintest

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
// putRow, removeRow, putSec and removeSec are the only writes.

type tableID struct {
	code, scope, table antelope.Name
}

// row is a primary row; immutable once stored: a change stores a new row.
type row struct {
	pk    uint64
	data  []byte
	payer antelope.Name
}

// secRow is a secondary index object; immutable once stored.
type secRow struct {
	pk    uint64
	key   antelope.TableKey
	payer antelope.Name
}

const numKinds = 5

type table struct {
	frozen bool // shared with a snapshot: copy before writing
	payer  antelope.Name
	// payerUnknown: a forked table whose payer the live chain could not
	// tell (payer is a guess); removing it cannot be billed right.
	payerUnknown bool
	rows         map[uint64]*row
	sec          [numKinds]map[uint64]*secRow
	order        []*row // rows by primary key, until the next write
	secOrder     [numKinds][]*secRow
}

func (t *table) count() int {
	n := len(t.rows)
	for _, s := range t.sec {
		n += len(s)
	}
	return n
}

type db struct {
	tables map[tableID]*table
	// lazy fills a forked chain's tables the first time they are looked
	// up (forkstate.go); nil for a chain that is no fork.
	lazy tableFiller
}

// tableFiller fetches a forked chain's tables: table for any lookup of a
// table, index besides for a secondary index of kind k (refused when the
// fork cannot rebuild it).
type tableFiller interface {
	fillTable(id tableID) *forkUnit
	fillIndex(id tableID, k wasm.IndexKind)
	// listScopes is called before a contract's tables are listed, which a
	// fork cannot do from what it fetched.
	listScopes(code antelope.Name)
}

// table is the table id, filled first on a fork: every lookup of a table
// goes through it.
func (d *db) table(id tableID) *table {
	if d.lazy != nil {
		d.lazy.fillTable(id)
	}
	return d.tables[id]
}

// index is table for a lookup of a secondary index of kind k.
func (d *db) index(id tableID, k wasm.IndexKind) *table {
	if d.lazy != nil {
		d.lazy.fillIndex(id, k)
	}
	return d.tables[id]
}

func newDB() *db { return &db{tables: map[tableID]*table{}} }

// snapshot freezes the current tables and returns a view of them that
// later writes do not change.
func (d *db) snapshot() *db {
	s := &db{tables: make(map[tableID]*table, len(d.tables)), lazy: d.lazy}
	for id, t := range d.tables {
		t.frozen = true
		s.tables[id] = t
	}
	return s
}

// restore makes the state what snap was (a failed transaction's changes
// are dropped).
func (d *db) restore(snap *db) {
	d.tables = make(map[tableID]*table, len(snap.tables))
	for id, t := range snap.tables {
		d.tables[id] = t
	}
}

func (d *db) get(id tableID, pk uint64) *row {
	if t := d.table(id); t != nil {
		return t.rows[pk]
	}
	return nil
}

func (d *db) getSec(id tableID, k wasm.IndexKind, pk uint64) *secRow {
	if t := d.index(id, k); t != nil {
		return t.sec[k][pk]
	}
	return nil
}

// writable returns the table to change, copying it if a snapshot holds it
// and creating it (paid by payer) if absent; created says it was.
func (d *db) writable(id tableID, payer antelope.Name) (t *table, created bool) {
	t = d.table(id)
	switch {
	case t == nil:
		t = &table{payer: payer, rows: map[uint64]*row{}}
		d.tables[id] = t
		created = true
	case t.frozen:
		c := &table{payer: t.payer, payerUnknown: t.payerUnknown, rows: make(map[uint64]*row, len(t.rows))}
		for k, r := range t.rows {
			c.rows[k] = r
		}
		for k, s := range t.sec {
			if s != nil {
				c.sec[k] = make(map[uint64]*secRow, len(s))
				for pk, r := range s {
					c.sec[k][pk] = r
				}
			}
		}
		t = c
		d.tables[id] = t
	}
	return t, created
}

// putRow stores a primary row (new or replacing the one with its key); the
// table is created, paid by r.payer, if it does not exist.
func (d *db) putRow(id tableID, r *row) (tableCreated bool) {
	t, created := d.writable(id, r.payer)
	t.rows[r.pk] = r
	t.order = nil
	return created
}

// removeRow removes a primary row, and the table with its last row: the
// table's payer is returned when it was.
func (d *db) removeRow(id tableID, pk uint64) (tableRemoved bool, tablePayer antelope.Name) {
	if d.get(id, pk) == nil {
		return false, 0
	}
	t, _ := d.writable(id, 0)
	delete(t.rows, pk)
	t.order = nil
	return d.dropIfEmpty(id, t)
}

// putSec stores a secondary index object (in a table of its own, or in a
// primary table: CDT's first index shares its table's name).
func (d *db) putSec(id tableID, k wasm.IndexKind, s *secRow) (tableCreated bool) {
	t, created := d.writable(id, s.payer)
	if t.sec[k] == nil {
		t.sec[k] = map[uint64]*secRow{}
	}
	t.sec[k][s.pk] = s
	t.secOrder[k] = nil
	return created
}

// removeSec removes a secondary index object, and the table with its last.
func (d *db) removeSec(id tableID, k wasm.IndexKind, pk uint64) (tableRemoved bool, tablePayer antelope.Name) {
	if d.getSec(id, k, pk) == nil {
		return false, 0
	}
	t, _ := d.writable(id, 0)
	delete(t.sec[k], pk)
	t.secOrder[k] = nil
	return d.dropIfEmpty(id, t)
}

func (d *db) dropIfEmpty(id tableID, t *table) (bool, antelope.Name) {
	if t.count() > 0 {
		return false, 0
	}
	delete(d.tables, id) // nodeos drops an empty table (and its scope)
	if t.payerUnknown {
		return true, 0 // no account: refundTable refuses it
	}
	return true, t.payer
}

// primary returns a table's rows by primary key (the caller must not
// change the slice).
func (d *db) primary(id tableID) []*row {
	t := d.table(id)
	if t == nil {
		return nil
	}
	if t.order == nil {
		rows := make([]*row, 0, len(t.rows))
		for _, r := range t.rows {
			rows = append(rows, r)
		}
		slices.SortFunc(rows, func(a, b *row) int { return cmp.Compare(a.pk, b.pk) })
		t.order = rows
	}
	return t.order
}

// secondary returns a table's objects of one index type by key, then
// primary key.
func (d *db) secondary(id tableID, k wasm.IndexKind) []*secRow {
	t := d.index(id, k)
	if t == nil {
		return nil
	}
	if t.secOrder[k] == nil {
		objs := make([]*secRow, 0, len(t.sec[k]))
		for _, s := range t.sec[k] {
			objs = append(objs, s)
		}
		slices.SortFunc(objs, compareSec)
		t.secOrder[k] = objs
	}
	return t.secOrder[k]
}

func compareSec(a, b *secRow) int {
	if c := compareKeys(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.pk, b.pk)
}

// sorted returns a table's rows in the order of an index position (1 the
// primary key; 2, 3… the secondary indexes, read from their own tables, as
// get_table_rows reads them), leaving out index objects without a row.
func (d *db) sorted(id tableID, index int) []*row {
	if index <= 1 {
		return d.primary(id)
	}
	idxID := indexTable(id, index)
	t := d.table(idxID)
	if t == nil {
		return nil
	}
	var out []*row
	for k := range t.sec {
		for _, s := range d.secondary(idxID, wasm.IndexKind(k)) {
			if r := d.get(id, s.pk); r != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// indexTable is the table of a secondary index position (2, 3…): CDT's
// name for it, the primary table's with index-2 in the low four bits (so
// the first secondary index is in the primary table itself, as nodeos
// keeps its objects beside the rows).
func indexTable(id tableID, index int) tableID {
	id.table = antelope.Name(uint64(id.table)&^0xF | uint64(index-2)&0xF)
	return id
}

// kindOf is the index type holding keys of type t.
func kindOf(t antelope.IndexKeyType) wasm.IndexKind {
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

// scopes lists (scope, table) pairs of a contract in nodeos's order.
func (d *db) scopes(code antelope.Name) []tableID {
	if d.lazy != nil {
		d.lazy.listScopes(code)
	}
	var out []tableID
	for id := range d.tables {
		if id.code == code {
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b tableID) int {
		switch {
		case a.scope != b.scope:
			return cmp.Compare(uint64(a.scope), uint64(b.scope))
		}
		return cmp.Compare(uint64(a.table), uint64(b.table))
	})
	return out
}
