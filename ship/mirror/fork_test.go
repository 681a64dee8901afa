package mirror

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

var errCrash = errors.New("crash")

// rounds is how many rounds of forks and crashes a random test runs:
// MIRROR_ROUNDS, or a short sweep (shorter under the race detector).
func rounds() int {
	if n, err := strconv.Atoi(os.Getenv("MIRROR_ROUNDS")); err == nil && n > 0 {
		return n
	}
	if raceOn {
		return 8
	}
	return 12
}

// While the chain forks — micro-forks (the same transactions in blocks of
// new ids) and deep forks (other transfers) — and finality moves, the
// mirror is stopped between any two statements of a block's transaction
// (as a crash there would stop it) and started again on the same database.
// At the end its tables equal the chain's, and it holds each transfer of
// the final branch once and none of an undone block.
func TestForksAndCrashes(t *testing.T) {
	for _, dbk := range databases() {
		for _, finalOnly := range []bool{false, true} {
			name := dbk.name
			if finalOnly {
				name += "/final-only"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				forksAndCrashes(t, dbk, finalOnly, uint64(len(name)))
			})
		}
	}
}

func forksAndCrashes(t *testing.T, dbk database, finalOnly bool, seed uint64) {
	tc := newTokenChain(t)
	rng := rand.New(rand.NewPCG(seed, 33))
	// The setup (deployment, create, issue) is final.
	if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
		t.Fatal(err)
	}
	k := 0
	for range 10 {
		tc.block(k)
		k++
	}
	if err := tc.node.SetLastIrreversible(tc.node.LastIrreversible().Num + 3); err != nil {
		t.Fatal(err)
	}
	db, d := dbk.open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	crashes, undone := 0, 0
	for round := range rounds() {
		m := mirrorOf(t, db, d, finalOnly) // a restart: nothing kept in memory
		statements, at := 0, 1+rng.IntN(40)
		if finalOnly {
			at = 1 + rng.IntN(12) // fewer blocks a round
		}
		if round%4 != 3 {
			m.crash = func() error {
				if statements++; statements == at {
					return errCrash
				}
				return nil
			}
		}
		end := tc.node.Head().Num + 1
		if finalOnly {
			end = tc.node.LastIrreversible().Num + 1
		}
		var progress Progress
		err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: end}, func(p Progress) { progress = p })
		undone += progress.Undone
		switch {
		case errors.Is(err, errCrash):
			crashes++
		case err != nil:
			t.Fatalf("round %d: %v", round, err)
		}
		if !finalOnly {
			// Started again, the mirror reaches the head, and holds its
			// state: whatever the fork replaced is undone.
			m = mirrorOf(t, db, d, finalOnly)
			if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: end}, func(p Progress) { progress = p }); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			undone += progress.Undone
			checkTables(t, tc, m)
		}
		// The chain moves on: a fork above the last irreversible block,
		// new blocks, finality.
		head, lib := tc.node.Head().Num, tc.node.LastIrreversible().Num
		switch n := lib + 1 + uint32(rng.IntN(int(head-lib))); {
		case n >= head:
		case rng.IntN(2) == 0:
			if err := tc.node.Fork(n); err != nil {
				t.Fatal(err)
			}
		default:
			if err := tc.node.Rollback(n); err != nil {
				t.Fatal(err)
			}
			k += 1 + rng.IntN(4) // other transfers than before
			for tc.node.Head().Num <= head {
				tc.block(k)
				k++
			}
		}
		for range rng.IntN(4) {
			tc.block(k)
			k++
		}
		if newLIB := lib + uint32(rng.IntN(5)); newLIB <= tc.node.Head().Num-2 {
			if err := tc.node.SetLastIrreversible(newLIB); err != nil {
				t.Fatal(err)
			}
		}
	}
	if finalOnly {
		if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
			t.Fatal(err)
		}
	}
	m := mirrorOf(t, db, d, finalOnly)
	if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rounds, %d crashes, %d blocks undone", rounds(), crashes, undone)
	if crashes < rounds()/3 || (!finalOnly && undone == 0) {
		t.Errorf("only %d crashes landed, %d blocks undone", crashes, undone)
	}
	checkTables(t, tc, m)
	if got, want := actionsOf(t, m, "transfer"), chainTransfers(t, tc); !equalLists(got, want) {
		t.Errorf("transfers: mirror %d, chain %d\n%v\n%v", len(got), len(want), got, want)
	}
	c, err := m.Cursor(ctx)
	if head := tc.node.Head(); err != nil || c.Last() != (ship.Position{Num: head.Num, ID: head.ID}) {
		t.Errorf("cursor %v (%v), head %d %x", c.Last(), err, head.Num, head.ID)
	}
	var logged int
	lib := tc.node.LastIrreversible().Num
	if err := db.QueryRow(d.params(`SELECT COUNT(*) FROM "_mirror_undo" WHERE "block_num" <= ?`), int64(lib)).Scan(&logged); err != nil || logged != 0 {
		t.Errorf("%d undo log entries at or below the last irreversible block (%v)", logged, err)
	}
}
