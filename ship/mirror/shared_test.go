package mirror

import (
	"context"
	"testing"

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
