package ship_test

import (
	"errors"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/shipcheck"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// matches checks the delivered branch against the chain's blocks.
func matches(b *shipcheck.Branch, chain *shiptest.Chain) {
	b.T.Helper()
	b.Matches(func(n uint32) (antelope.Checksum256, bool) {
		blk, ok := chain.Block(n)
		return blk.ID, ok
	})
}

// follow streams from start, calling script[n] the first time block n is
// delivered, until block end is delivered on the chain's final branch.
func follow(t *testing.T, srv *shiptest.Server, chain *shiptest.Chain, req ship.Request, end uint32, script map[uint32]func(), opts ...ship.Option) *shipcheck.Branch {
	t.Helper()
	b := &shipcheck.Branch{T: t}
	done := map[uint32]bool{}
	for ev, err := range fastClient(srv.URL, opts...).Stream(testContext(t), req) {
		if err != nil {
			t.Fatal(err)
		}
		b.Event(ev)
		if ev.Block == nil {
			continue
		}
		n := ev.Block.Num
		if f := script[n]; f != nil && !done[n] {
			done[n] = true
			f()
		}
		if head, _ := chain.Heads(); n >= head && head < end {
			chain.ProduceEmpty(1)
		}
		if n == end {
			if final, _ := chain.Block(end); final.ID == ev.Block.ID {
				break
			}
		}
	}
	matches(b, chain)
	return b
}

func TestMicroForks(t *testing.T) {
	for _, window := range []uint32{1, 4, 32} {
		chain := shiptest.NewChain()
		chain.ProduceEmpty(10)
		srv := shiptest.NewServer(chain)
		b := follow(t, srv, chain, ship.Request{Start: 1}, 40, map[uint32]func(){
			12: func() { chain.Fork(11) }, // 1 block
			20: func() { chain.Fork(18) }, // 2 blocks
			30: func() { chain.Fork(27) }, // 3 blocks
		}, ship.WithWindow(window))
		srv.Close()
		if b.Undos < 3 {
			t.Errorf("window %d: %d undos", window, b.Undos)
		}
	}
}

func TestJumpBack(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(35)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	b := follow(t, srv, chain, ship.Request{Start: 1}, 45, map[uint32]func(){
		35: func() { chain.ForkWith(19, make([]shiptest.BlockData, 20)...) }, // 35 → 20
	})
	if b.Undos == 0 {
		t.Error("no undo")
	}
}

// The stream started at 30; a fork at 25 replaces blocks it never
// delivered: it undoes all it holds, passes over 26–29, and goes on at 30
// on the new branch.
func TestForkBelowFirstBlock(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(35)
	chain.SetLastIrreversible(10)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	b := follow(t, srv, chain, ship.Request{Start: 30}, 45, map[uint32]func(){
		35: func() { chain.ForkWith(25, make([]shiptest.BlockData, 12)...) },
	})
	if b.Undos == 0 || b.Blocks[0].Num != 30 {
		t.Errorf("undos %d, first %v", b.Undos, b.Blocks[0])
	}
}

// A node that rolls back below the oldest reversible block the stream
// holds (below its last irreversible block), and holds its new branch
// final, is an error naming the blocks. (One that does not hold it final
// is behind: TestLaggingNodeRewindBelowReportedLIB.)
func TestForkBelowReversibleIsAnError(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var err error
	stream := fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1})
	for ev, e := range stream {
		if e != nil {
			err = e
			break
		}
		if ev.Block != nil && ev.Block.Num == 15 {
			chain.SetLastIrreversible(14)
			chain.ProduceEmpty(1) // the stream learns the new last irreversible block
		}
		if ev.Block != nil && ev.Block.Num == 18 {
			chain.ForkBelowIrreversible(12)
			chain.SetLastIrreversible(18) // and holds the new 13 to 18 final
		}
	}
	if !errors.Is(err, ship.ErrForkBelowReversible) {
		t.Fatalf("%v", err)
	}
}

// A fork that happens while the consumer is away is undone when it resumes
// with its cursor (have_positions).
func TestForkWhileDisconnected(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(30)
	chain.SetLastIrreversible(20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	b := &shipcheck.Branch{T: t}
	var cursor ship.Cursor
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 31}) {
		if err != nil {
			t.Fatal(err)
		}
		b.Event(ev)
		cursor = ev.Cursor()
	}
	if got := cursor.Last().Num; got != 30 || len(cursor.Reversible()) != 11 {
		t.Fatalf("cursor at %d holding %d", got, len(cursor.Reversible()))
	}
	text, _ := cursor.MarshalText()
	chain.ForkWith(25, make([]shiptest.BlockData, 10)...) // 26–35 replaced while away

	var resumed ship.Cursor
	if err := resumed.UnmarshalText(text); err != nil {
		t.Fatal(err)
	}
	undone := 0
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Cursor: resumed, End: 36}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo != nil {
			undone += len(ev.Undo.Blocks)
			if ev.Undo.Blocks[len(ev.Undo.Blocks)-1].Num != 26 {
				t.Errorf("undo %v", ev.Undo.Blocks)
			}
		}
		b.Event(ev)
	}
	matches(b, chain)
	if undone != 5 || b.Blocks[len(b.Blocks)-1].Num != 35 {
		t.Errorf("undone %d, last %v", undone, b.Blocks[len(b.Blocks)-1])
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.StartBlockNum != 31 || len(last.HavePositions) != 11 {
		t.Errorf("resume request: start %d, %d positions", last.StartBlockNum, len(last.HavePositions))
	}
}
