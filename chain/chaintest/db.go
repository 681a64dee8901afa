package chaintest

import (
	"cmp"
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// The chain's state: contract tables, each a set of rows by primary key
// with secondary keys, versioned so that every block's state stays readable
// (the state service serves tables as of any block).

type tableID struct {
	code, scope, table antelope.Name
}

// row is immutable once stored: a change stores a new row.
type row struct {
	pk    uint64
	data  []byte
	payer antelope.Name
	sec   []antelope.TableKey // sec[i] is the key of index position i+2
}

type table struct {
	frozen bool // shared with a snapshot: copy before writing
	rows   map[uint64]*row
	order  map[int][]*row // rows sorted by index position, until the next write
}

type db struct {
	tables map[tableID]*table
}

func newDB() *db { return &db{tables: map[tableID]*table{}} }

// snapshot freezes the current tables and returns a view of them that
// later writes do not change.
func (d *db) snapshot() *db {
	s := &db{tables: make(map[tableID]*table, len(d.tables))}
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
	if t := d.tables[id]; t != nil {
		return t.rows[pk]
	}
	return nil
}

// writable returns the table to change, copying it if a snapshot holds it.
func (d *db) writable(id tableID) *table {
	t := d.tables[id]
	switch {
	case t == nil:
		t = &table{rows: map[uint64]*row{}}
		d.tables[id] = t
	case t.frozen:
		c := &table{rows: make(map[uint64]*row, len(t.rows))}
		for k, r := range t.rows {
			c.rows[k] = r
		}
		t = c
		d.tables[id] = t
	}
	return t
}

func (d *db) put(id tableID, r *row) {
	t := d.writable(id)
	t.rows[r.pk] = r
	t.order = nil
}

func (d *db) remove(id tableID, pk uint64) {
	if d.get(id, pk) == nil {
		return
	}
	t := d.writable(id)
	delete(t.rows, pk)
	t.order = nil
	if len(t.rows) == 0 {
		delete(d.tables, id) // nodeos drops an empty table (and its scope)
	}
}

// sorted returns a table's rows ordered by index position (1 primary, 2…
// secondary: by key, then primary key).
func (d *db) sorted(id tableID, index int) []*row {
	t := d.tables[id]
	if t == nil {
		return nil
	}
	if cached, ok := t.order[index]; ok {
		return cached
	}
	rows := make([]*row, 0, len(t.rows))
	for _, r := range t.rows {
		if index <= 1 || index-2 < len(r.sec) {
			rows = append(rows, r)
		}
	}
	slices.SortFunc(rows, func(a, b *row) int {
		if index > 1 {
			if c := compareKeys(a.sec[index-2], b.sec[index-2]); c != 0 {
				return c
			}
		}
		switch {
		case a.pk < b.pk:
			return -1
		case a.pk > b.pk:
			return 1
		}
		return 0
	})
	if t.order == nil {
		t.order = map[int][]*row{}
	}
	t.order[index] = rows // the caller must not change it
	return rows
}

// scopes lists (scope, table) pairs of a contract in nodeos's order.
func (d *db) scopes(code antelope.Name) []tableID {
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
