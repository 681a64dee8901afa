package mirror

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
)

// Two mirrors in one database keep their positions apart whatever their
// contracts and prefixes: contract "tokx" without a prefix and contract
// "x" with prefix "tok" have distinct tables ("accounts", "tokaccounts"),
// so they must have distinct cursors too.
func TestMirrorsApartByPrefixAndContract(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			ctx := context.Background()
			db, d := dbk.open(t)
			a, err := Open(ctx, db, d, tokenABI(t), Options{Contract: antelope.MustName("tokx")})
			if err != nil {
				t.Fatal(err)
			}
			b, err := Open(ctx, db, d, tokenABI(t), Options{Contract: antelope.MustName("x"), Prefix: "tok"})
			if err != nil {
				t.Fatal(err)
			}
			if a.Schema().Tables[0].SQLName == b.Schema().Tables[0].SQLName {
				t.Fatalf("both mirrors write table %s", a.Schema().Tables[0].SQLName)
			}
			// a commits a block.
			var c ship.Cursor
			bin := append([]byte{1, 1, 7, 0, 0, 0}, make([]byte, 32)...)
			if err := c.UnmarshalBinary(bin); err != nil {
				t.Fatal(err)
			}
			text, _ := c.MarshalText()
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if err := a.exec(ctx, tx, a.statePS, a.id, a.abiHash, string(a.src.JSON), string(text), int64(7), int64(7)); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			got, err := b.Cursor(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !got.IsZero() {
				t.Errorf("mirror x (prefix tok) starts from mirror tokx's cursor %s: it would skip every block before it", got)
			}
		})
	}
}

// Two contracts of one ABI mirrored without a prefix share its tables (rows
// apart by code, actions by receiver): a fork undone by one mirror deletes
// its own actions of the undone blocks, not the other contract's.
func TestUndoKeepsOtherContractsActions(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			tc := newTokenChain(t)
			if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			for k := range 4 {
				tc.block(k)
			}
			db, d := dbk.open(t)
			m := mirrorOf(t, db, d, false)
			if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil); err != nil {
				t.Fatal(err)
			}
			// The other contract's mirror wrote a transfer in the head block.
			head := tc.node.Head().Num
			tbl := m.schema.byName[antelope.MustName("transfer")]
			vals := []any{"999999999", int64(head), "00", "00", int64(1), "tokx", "[]", "alice", "bob", int64(1), "4,TLOS", "", []byte{}}
			if len(vals) != len(tbl.Columns) {
				t.Fatalf("%d columns", len(tbl.Columns))
			}
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec(tbl.statements(d).insert, vals...); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := tc.node.Fork(head - 1); err != nil {
				t.Fatal(err)
			}
			var p Progress
			if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{End: tc.node.Head().Num + 1}, func(q Progress) { p = q }); err != nil {
				t.Fatal(err)
			}
			if p.Undone == 0 {
				t.Fatal("no fork reached the mirror")
			}
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM "transfer_action" WHERE "receiver" = 'tokx'`).Scan(&n); err != nil || n != 1 {
				t.Errorf("the other contract's transfers: %d (%v), want 1", n, err)
			}
		})
	}
}

// A second contract mirrored into the same database without a prefix, whose
// ABI has a table of the same name and other fields, is refused at Open:
// its rows would not fit the table the first one made (or, with the same
// column names, land in columns of other types).
func TestOpenRefusesAnotherTablesShape(t *testing.T) {
	const otherABI = `{"version":"eosio::abi/1.2","structs":[{"name":"account","base":"","fields":[
		{"name":"id","type":"uint64"},{"name":"note","type":"string"}]}],
		"tables":[{"name":"accounts","type":"account","index_type":"i64","key_names":[],"key_types":[]}]}`
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			ctx := context.Background()
			db, d := dbk.open(t)
			mirrorOf(t, db, d, false)
			_, err := Open(ctx, db, d, []byte(otherABI), Options{Contract: antelope.MustName("other")})
			if !errors.Is(err, ErrSchemaMismatch) {
				t.Fatalf("Open: %v, want ErrSchemaMismatch", err)
			}
			// With a prefix of its own it has a table of its own.
			if _, err := Open(ctx, db, d, []byte(otherABI), Options{Contract: antelope.MustName("other"), Prefix: "other_"}); err != nil {
				t.Fatal(err)
			}
			// The same ABI for another contract shares the tables (rows
			// apart by code).
			if _, err := Open(ctx, db, d, tokenABI(t), Options{Contract: antelope.MustName("tokx"), Actions: true}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
