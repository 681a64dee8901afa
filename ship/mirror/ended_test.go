package mirror

import (
	"context"
	"database/sql/driver"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/antelopego/abigen/ship"
)

// TestStoppedByItsContextSaysSo: a Backfill or a Run whose context ends as
// one of a block's statements is sent returns an error that is the
// context's. On PostgreSQL, pgx reported the next statement as
// "driver: bad connection" (driver.ErrBadConn, which database/sql passes
// on within a transaction), and a Backfill killed by its context failed
// TestBackfill's shared run once in a while as if its database had.
func TestStoppedByItsContextSaysSo(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			tc := newTokenChain(t)
			for k := range 12 {
				tc.block(k)
			}
			if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			for _, run := range []struct {
				name string
				do   func(ctx context.Context, m *Mirror) error
			}{
				{"Backfill", func(ctx context.Context, m *Mirror) error {
					return m.Backfill(ctx, tc.node.SHiPClient(), tc.start, 0, 2, nil)
				}},
				{"Run", func(ctx context.Context, m *Mirror) error {
					return m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil)
				}},
				// A caller's own loop: the stream goes on under a context of
				// its own, the mirror's statements under ctx.
				{"Apply", func(ctx context.Context, m *Mirror) error {
					req := ship.Request{Start: tc.start, End: tc.node.Head().Num + 1, Fetch: ship.FetchTraces | ship.FetchDeltas}
					for ev, err := range tc.node.SHiPClient().Stream(context.Background(), req) {
						if err != nil {
							return err
						}
						if err := m.Apply(ctx, ev); err != nil {
							return err
						}
					}
					return nil
				}},
			} {
				for _, at := range []int64{3, 10, 25} {
					db, d := dbk.open(t)
					m := mirrorOf(t, db, d, false)
					ctx, cancel := context.WithCancel(context.Background())
					var statements atomic.Int64
					m.crash = func() error {
						if statements.Add(1) == at {
							// The process is told to stop as a statement is
							// sent, and the driver says what pgx says then
							// (database/sql's own check of the context
							// came just before, and passed).
							cancel()
							return driver.ErrBadConn
						}
						return nil
					}
					err := run.do(ctx, m)
					cancel()
					if statements.Load() < at {
						t.Fatalf("%s: only %d statements, the context was not ended", run.name, statements.Load())
					}
					if !errors.Is(err, context.Canceled) {
						t.Errorf("%s stopped by its context at statement %d: %v, want an error that is context.Canceled", run.name, at, err)
					}
				}
			}
		})
	}
}
