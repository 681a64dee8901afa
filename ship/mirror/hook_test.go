package mirror

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A Hook runs in each block's transaction: a Backfill, which writes its
// parts' blocks out of order and without it, refuses a mirror that has
// one, instead of leaving the derived tables without the blocks it fills.
func TestBackfillRefusesHook(t *testing.T) {
	tc := newTokenChain(t)
	for k := range 4 {
		tc.block(k)
	}
	if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, d := databases()[0].open(t)
	hooked := 0
	m, err := Open(ctx, db, d, tokenABI(t), Options{Contract: token, Hook: func(context.Context, *sql.Tx, ship.Event) error {
		hooked++
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	err = m.Backfill(ctx, tc.node.SHiPClient(), tc.start, 0, 2, nil)
	if err == nil {
		c, _ := m.Cursor(ctx)
		t.Fatalf("backfilled to block %d, the hook ran %d times", c.Last().Num, hooked)
	}
	if c, _ := m.Cursor(ctx); !c.IsZero() {
		t.Errorf("refused, yet the cursor is at %d", c.Last().Num)
	}
}
