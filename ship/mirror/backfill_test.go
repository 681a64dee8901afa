package mirror

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A backfill of the final blocks with 1 reader, with 4, and with 4 stopped
// between random statements and called again, then handed to Run for the
// reversible blocks, gives identical databases, equal to the chain.
func TestBackfill(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			t.Parallel()
			tc := newTokenChain(t)
			for k := range 40 {
				tc.block(k)
			}
			if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			for k := 40; k < 46; k++ {
				tc.block(k) // reversible: Run's
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var dumps []string
			for _, c := range []struct {
				readers int
				crash   bool
			}{{1, false}, {4, false}, {4, true}} {
				db, d := dbk.open(t)
				m := mirrorOf(t, db, d, false)
				var statements atomic.Int64
				crashes := 0
				if c.crash {
					m.crash = func() error {
						if statements.Add(1)%37 == 0 {
							return errCrash
						}
						return nil
					}
				}
				for {
					err := m.Backfill(ctx, tc.node.SHiPClient(), tc.start, 0, c.readers, nil)
					if err == nil {
						break
					}
					if !errors.Is(err, errCrash) || crashes > 100 {
						t.Fatalf("%d readers: %v", c.readers, err)
					}
					crashes++
					m = mirrorOf(t, db, d, false)
					m.crash = func() error {
						if statements.Add(1)%37 == 0 {
							return errCrash
						}
						return nil
					}
				}
				if c.crash && crashes == 0 {
					t.Error("no crash landed")
				}
				if cur, err := m.Cursor(ctx); err != nil || cur.Last().Num != tc.node.LastIrreversible().Num {
					t.Fatalf("after the backfill the cursor is at %d (%v), want the last irreversible block %d", cur.Last().Num, err, tc.node.LastIrreversible().Num)
				}
				m = mirrorOf(t, db, d, false)
				if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{End: tc.node.Head().Num + 1}, nil); err != nil {
					t.Fatal(err)
				}
				checkTables(t, tc, m)
				if got, want := actionsOf(t, m, "transfer"), chainTransfers(t, tc); !equalLists(got, want) {
					t.Errorf("%d readers: transfers: mirror %d, chain %d", c.readers, len(got), len(want))
				}
				dumps = append(dumps, dump(t, m))
				t.Logf("%d readers: %d crashes", c.readers, crashes)
			}
			if d := dbk.name; d == "postgres" {
				dumps = append(dumps, sharedBackfill(t, dbk, tc))
			}
			for i := 1; i < len(dumps); i++ {
				if dumps[i] != dumps[0] {
					t.Errorf("database %d differs from the 1-reader one:\n%s\n%s", i, dumps[i], dumps[0])
				}
			}
		})
	}
}

// dump prints every mirrored table and the cursor, rows sorted.
func dump(t *testing.T, m *Mirror) string {
	t.Helper()
	var b strings.Builder
	for _, tbl := range append(append([]*Table{}, m.schema.Tables...), m.schema.Actions...) {
		rows, err := m.db.Query(`SELECT * FROM ` + quote(tbl.SQLName))
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			vals := make([]any, len(tbl.Columns))
			ptrs := make([]any, len(vals))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var line []string
			for _, v := range vals {
				line = append(line, fmt.Sprintf("%q", normalize(v)))
			}
			lines = append(lines, strings.Join(line, " "))
		}
		rows.Close()
		slices.Sort(lines)
		fmt.Fprintf(&b, "%s:\n%s\n", tbl.SQLName, strings.Join(lines, "\n"))
	}
	c, err := m.Cursor(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "cursor %v\n", c.Reversible())
	return b.String()
}

// sharedBackfill backfills one PostgreSQL database from two processes
// (two connection pools), two readers each; one dies (its context ends)
// after a few blocks, and the other takes over the parts it held.
func sharedBackfill(t *testing.T, dbk database, tc *tokenChain) string {
	dsn := dbk.dsn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db1, d := openDSN(t, dsn)
	db2, _ := openDSN(t, dsn)
	m1, m2 := mirrorOf(t, db1, d, false), mirrorOf(t, db2, d, false)
	ctx1, die := context.WithCancel(ctx)
	var blocks1, blocks2 atomic.Int64
	errs := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		errs <- m1.Backfill(ctx1, tc.node.SHiPClient(), tc.start, 0, 2, func(BackfillProgress) {
			switch blocks1.Add(1) {
			case 1:
				close(started)
			case 5:
				die()
			}
		})
	}()
	// The second process starts once the first holds parts and has read a
	// block, so that both do some of the work whatever the scheduling (it
	// started first and finished everything on a loaded machine).
	select {
	case <-started:
	case err := <-errs:
		t.Fatalf("the first process ended before reading a block: %v", err)
	}
	if err := m2.Backfill(ctx, tc.node.SHiPClient(), tc.start, 0, 2, func(BackfillProgress) { blocks2.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	die()
	t.Logf("shared backfill: %d blocks by the process that died, %d by the other", blocks1.Load(), blocks2.Load())
	if blocks1.Load() == 0 || blocks2.Load() == 0 {
		t.Errorf("the work was not shared: %d and %d blocks", blocks1.Load(), blocks2.Load())
	}
	if err := m2.Run(ctx, tc.node.SHiPClient(), ship.Request{End: tc.node.Head().Num + 1}, nil); err != nil {
		t.Fatal(err)
	}
	checkTables(t, tc, m2)
	return dump(t, m2)
}
