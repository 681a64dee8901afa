package ship_test

import (
	"errors"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// cursorAt streams req until block n is delivered and returns its cursor.
func cursorAt(t *testing.T, url string, req ship.Request, n uint32) ship.Cursor {
	t.Helper()
	for ev, err := range fastClient(url).Stream(testContext(t), req) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Block != nil && ev.Block.Num == n {
			return ev.Cursor()
		}
	}
	t.Fatalf("block %d never came", n)
	return ship.Cursor{}
}

// A cursor resumed against a node of another chain (a wrong URL) is
// refused before anything is undone or delivered.
func TestResumeOnAnotherChainRefused(t *testing.T) {
	a := shiptest.NewChain()
	a.ProduceEmpty(20)
	a.SetLastIrreversible(12)
	srvA := shiptest.NewServer(a, shiptest.WithChainID(antelope.Checksum256{0xaa}))
	defer srvA.Close()
	cur := cursorAt(t, srvA.URL, ship.Request{Start: 1}, 20)
	if cur.ChainID() != (antelope.Checksum256{0xaa}) {
		t.Errorf("the cursor holds chain %v", cur.ChainID())
	}

	b := shiptest.NewChain()
	b.ProduceEmpty(30) // same numbers, other ids: another chain
	srvB := shiptest.NewServer(b, shiptest.WithChainID(antelope.Checksum256{0xbb}))
	defer srvB.Close()
	_, err := streamAll(t, fastClient(srvB.URL), ship.Request{Cursor: cur}, func(ev ship.Event) {
		t.Fatalf("resumed on another chain: %+v", ev)
	})
	if !errors.Is(err, ship.ErrOtherChain) {
		t.Fatalf("%v", err)
	}
}

// Resumed against a node whose branch left the delivered one at or below
// the last irreversible block already reported, the stream ends with
// ErrForkBelowReversible: it never undoes a block reported final.
func TestResumeNeverUndoesReportedFinal(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	chain.SetLastIrreversible(15)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	cur := cursorAt(t, srv.URL, ship.Request{Start: 1}, 20)
	if cur.LastIrreversible() != 15 {
		t.Errorf("the cursor holds last irreversible %d", cur.LastIrreversible())
	}
	chain.ForkBelowIrreversible(10) // a broken node behind the load balancer,
	chain.SetLastIrreversible(20)   // holding another block 15 final
	_, err := streamAll(t, fastClient(srv.URL), ship.Request{Cursor: cur}, func(ev ship.Event) {
		if ev.Undo != nil {
			t.Fatalf("undid %v, reported final up to 15", ev.Undo.Blocks)
		}
	})
	if !errors.Is(err, ship.ErrForkBelowReversible) {
		t.Fatalf("%v", err)
	}
}

// The cursor remembers where the stream started: resumed with Start 0, a
// fork below the first delivered block (above the last irreversible one)
// is undone as within one process, and the cursor of an Undo of everything
// delivered resumes at the start, not at block 1.
func TestCursorRemembersStart(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(12)
	chain.SetLastIrreversible(5)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	cur := cursorAt(t, srv.URL, ship.Request{Start: 10}, 12)
	if cur.Start() != 10 {
		t.Errorf("start %d", cur.Start())
	}
	chain.Fork(8)
	var undone ship.Cursor
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Cursor: cur}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo == nil {
			t.Fatalf("block %d before the Undo", ev.Block.Num)
		}
		undone = ev.Cursor()
		break
	}
	if undone.IsZero() || undone.Start() != 10 {
		t.Fatalf("after undoing everything: %+v", undone)
	}
	chain.Fork(8)
	b, err := streamAll(t, fastClient(srv.URL), ship.Request{Cursor: undone, End: 13}, nil)
	if err != nil || len(b.Blocks) != 3 || b.Blocks[0].Num != 10 {
		t.Fatalf("%v: %v", b.Blocks, err)
	}
	matches(b, chain)
}
