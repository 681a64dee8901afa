package mirror

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// Two mirror processes on one database, started together: both read the
// empty cursor, and the second applies blocks the first already wrote. A
// block that does not follow the database's cursor is refused
// (ErrNotNext), nothing written: the database never goes back to an
// earlier cursor with later rows.
func TestSecondProcessRefused(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			tc := newTokenChain(t)
			for k := range 6 {
				tc.block(k)
			}
			if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			db, d := dbk.open(t)
			// Without actions: their unique key would refuse a second copy
			// by chance; rows are upserted, and nothing else would.
			open := func() *Mirror {
				m, err := Open(ctx, db, d, tokenABI(t), Options{Contract: token, FinalOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			first, second := open(), open()
			end := tc.node.Head().Num + 1
			if err := first.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: end}, nil); err != nil {
				t.Fatal(err)
			}
			// The second process read the cursor before the first wrote
			// any: its stream starts at the start too.
			req := ship.Request{Start: tc.start, End: end, FinalOnly: true, Fetch: ship.FetchTraces | ship.FetchDeltas}
			applied := 0
			for ev, err := range tc.node.SHiPClient().Stream(ctx, req) {
				if err != nil {
					t.Fatal(err)
				}
				if err := second.Apply(ctx, ev); err != nil {
					if !errors.Is(err, ErrNotNext) {
						t.Fatalf("block %d: %v", ev.Block.Num, err)
					}
					continue
				}
				applied++
			}
			if applied != 0 {
				c, _ := second.Cursor(ctx)
				t.Errorf("the second process wrote %d blocks the first had written; the cursor went back to %d", applied, c.Last().Num)
			}
			checkTables(t, tc, first)
			if c, _ := first.Cursor(ctx); c.Last().Num != end-1 {
				t.Errorf("cursor at %d, want %d", c.Last().Num, end-1)
			}
		})
	}
}
