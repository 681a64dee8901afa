package mirror

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A database's cursor taken to another chain's node (another network, or a
// node restored from an older snapshot of another history): the node finds
// none of the cursor's blocks, the last irreversible one included, and
// rewinds below them. The mirror refuses instead of undoing a block it
// already holds as final (its undo log is pruned there: the rows it changed
// would stay) and mixing the two chains' rows.
func TestCursorFromAnotherChain(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			a, b := newTokenChain(t), newTokenChain(t)
			for _, tc := range []*tokenChain{a, b} {
				if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
					t.Fatal(err)
				}
			}
			for k := range 8 {
				a.block(k)
				b.block(k + 2) // other transfers
			}
			if err := a.node.SetLastIrreversible(a.node.Head().Num - 3); err != nil {
				t.Fatal(err)
			}
			// Chain b holds its own blocks final, so it contradicts chain a's
			// rather than lagging behind them (a node whose last irreversible
			// block is below the one the stream reported is waited for).
			if err := b.node.SetLastIrreversible(b.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			db, d := dbk.open(t)
			m := mirrorOf(t, db, d, false)
			if err := m.Run(ctx, a.node.SHiPClient(), ship.Request{Start: a.start, End: a.node.Head().Num + 1}, nil); err != nil {
				t.Fatal(err)
			}
			c, _ := m.Cursor(ctx)
			var undone int
			err := m.Run(ctx, b.node.SHiPClient(), ship.Request{Start: b.start, End: b.node.Head().Num + 1}, func(p Progress) { undone = p.Undone })
			// ship refuses the contradiction itself (the cursor keeps the
			// last irreversible block it reported); the mirror's own check
			// (ErrUndoFinal) stands behind it for cursors that do not.
			if !errors.Is(err, ErrUndoFinal) && !errors.Is(err, ship.ErrForkBelowReversible) {
				c, _ := m.Cursor(ctx)
				t.Fatalf("mirrored chain b on top of chain a's final blocks (%d blocks undone), now at %v: %v", undone, c.Last(), err)
			}
			// Nothing was written: the database is still chain a's.
			checkTables(t, a, m)
			if got, _ := m.Cursor(ctx); got.Last() != c.Last() {
				t.Errorf("cursor moved from %v to %v", c.Last(), got.Last())
			}
		})
	}
}
