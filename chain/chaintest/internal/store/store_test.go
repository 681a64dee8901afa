package store

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// model is what a DB should hold: per table, the primary rows' data and
// the idx64 objects' keys, by primary key.
type model struct {
	rows map[TableID]map[uint64]string
	sec  map[TableID]map[uint64]uint64
}

func (m model) clone() model {
	c := model{rows: map[TableID]map[uint64]string{}, sec: map[TableID]map[uint64]uint64{}}
	for id, r := range m.rows {
		c.rows[id] = maps.Clone(r)
	}
	for id, s := range m.sec {
		c.sec[id] = maps.Clone(s)
	}
	return c
}

// check fails unless d holds exactly what m says, in the orders the
// chain reads (Primary by primary key, Secondary by key then primary key),
// with no empty table left behind.
func (m model) check(t *testing.T, what string, d *DB) {
	t.Helper()
	for id, tb := range d.Tables {
		if tb.count() == 0 {
			t.Fatalf("%s: table %v is empty but kept", what, id)
		}
		if len(m.rows[id]) == 0 && len(m.sec[id]) == 0 {
			t.Fatalf("%s: table %v exists, the model has nothing in it", what, id)
		}
	}
	for id, want := range m.rows {
		rows := d.Primary(id)
		if len(rows) != len(want) {
			t.Fatalf("%s: %v has %d rows, want %d", what, id, len(rows), len(want))
		}
		for i, r := range rows {
			if i > 0 && rows[i-1].PK >= r.PK {
				t.Fatalf("%s: %v rows out of order", what, id)
			}
			if string(r.Data) != want[r.PK] {
				t.Fatalf("%s: %v row %d is %q, want %q", what, id, r.PK, r.Data, want[r.PK])
			}
		}
	}
	for id, want := range m.sec {
		objs := d.Secondary(id, wasm.Idx64)
		if len(objs) != len(want) {
			t.Fatalf("%s: %v has %d index objects, want %d", what, id, len(objs), len(want))
		}
		for i, s := range objs {
			if i > 0 && CompareSec(objs[i-1], s) >= 0 {
				t.Fatalf("%s: %v index objects out of order", what, id)
			}
			if k, ok := want[s.PK]; !ok || s.Key.Uint64() != k {
				t.Fatalf("%s: %v index object %d has key %d, want %d (%v)", what, id, s.PK, s.Key.Uint64(), k, ok)
			}
		}
	}
}

// TestSnapshotsStayPut runs random writes against a model, taking
// snapshots (a block's state, a transaction's undo point) and restoring
// some: a snapshot never sees a later write, and a restore brings back
// exactly what the snapshot held.
func TestSnapshotsStayPut(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for seed := range uint64(rounds) {
		rng := rand.New(rand.NewPCG(seed, 32))
		ids := []TableID{{Code: 1, Scope: 1, Table: 1}, {Code: 1, Scope: 2, Table: 1}, {Code: 2, Scope: 1, Table: 3}}
		d, m := New(), model{rows: map[TableID]map[uint64]string{}, sec: map[TableID]map[uint64]uint64{}}
		type snap struct {
			db *DB
			m  model
		}
		var snaps []snap
		for step := range 80 {
			id, pk := ids[rng.IntN(len(ids))], uint64(rng.IntN(6))
			switch op := rng.IntN(7); op {
			case 0, 1:
				data := string(rune('a' + step%26))
				d.PutRow(id, &Row{PK: pk, Data: []byte(data), Payer: antelope.Name(7)})
				if m.rows[id] == nil {
					m.rows[id] = map[uint64]string{}
				}
				m.rows[id][pk] = data
			case 2:
				d.RemoveRow(id, pk)
				delete(m.rows[id], pk)
			case 3:
				key := uint64(rng.IntN(4))
				d.PutSec(id, wasm.Idx64, &SecRow{PK: pk, Key: antelope.KeyUint64(key), Payer: antelope.Name(7)})
				if m.sec[id] == nil {
					m.sec[id] = map[uint64]uint64{}
				}
				m.sec[id][pk] = key
			case 4:
				d.RemoveSec(id, wasm.Idx64, pk)
				delete(m.sec[id], pk)
			case 5:
				snaps = append(snaps, snap{d.Snapshot(), m.clone()})
			case 6:
				if len(snaps) > 0 {
					s := snaps[rng.IntN(len(snaps))]
					d.Restore(s.db)
					m = s.m.clone()
				}
			}
			for id := range m.rows {
				if len(m.rows[id]) == 0 {
					delete(m.rows, id)
				}
			}
			for id := range m.sec {
				if len(m.sec[id]) == 0 {
					delete(m.sec, id)
				}
			}
			m.check(t, "the store", d)
		}
		for i, s := range slices.Backward(snaps) {
			s.m.check(t, "snapshot "+strconv.Itoa(i), s.db)
		}
	}
}
