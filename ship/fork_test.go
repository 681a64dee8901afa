package ship_test

import (
	"errors"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// branch is a consumer that checks spring's ship_streamer invariant: every
// delivered block links to the block delivered at n-1 on the current
// branch, and an Undo removes exactly the newest blocks, before anything
// is delivered again at their numbers.
type branch struct {
	t      *testing.T
	blocks []ship.Position // the current branch as delivered, consecutive
	undos  int
}

func (b *branch) event(ev ship.Event) {
	b.t.Helper()
	if ev.Undo != nil {
		b.undos++
		for _, p := range ev.Undo.Blocks {
			if len(b.blocks) == 0 || b.blocks[len(b.blocks)-1] != p {
				b.t.Fatalf("undo of %v, but the newest block is not it (%d held)", p, len(b.blocks))
			}
			b.blocks = b.blocks[:len(b.blocks)-1]
		}
		return
	}
	blk := ev.Block
	if n := len(b.blocks); n > 0 {
		last := b.blocks[n-1]
		if blk.Num != last.Num+1 {
			b.t.Fatalf("block %d delivered after %d without an undo", blk.Num, last.Num)
		}
		if blk.Previous != last.ID {
			b.t.Fatalf("block %d does not link to the delivered block %v", blk.Num, last)
		}
	}
	b.blocks = append(b.blocks, blk.Position)
}

// matches checks the delivered branch against the chain's blocks.
func (b *branch) matches(chain *shiptest.Chain) {
	b.t.Helper()
	for _, p := range b.blocks {
		want, ok := chain.Block(p.Num)
		if !ok || want.ID != p.ID {
			b.t.Fatalf("block %d delivered as %v is not on the chain's branch", p.Num, p.ID)
		}
	}
}

// follow streams from start, calling script[n] the first time block n is
// delivered, until block end is delivered on the chain's final branch.
func follow(t *testing.T, srv *shiptest.Server, chain *shiptest.Chain, req ship.Request, end uint32, script map[uint32]func(), opts ...ship.Option) *branch {
	t.Helper()
	b := &branch{t: t}
	done := map[uint32]bool{}
	for ev, err := range fastClient(srv.URL, opts...).Stream(testContext(t), req) {
		if err != nil {
			t.Fatal(err)
		}
		b.event(ev)
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
	b.matches(chain)
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
		if b.undos < 3 {
			t.Errorf("window %d: %d undos", window, b.undos)
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
	if b.undos == 0 {
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
	if b.undos == 0 || b.blocks[0].Num != 30 {
		t.Errorf("undos %d, first %v", b.undos, b.blocks[0])
	}
}

// A node that rolls back below the oldest reversible block the stream
// holds (below its last irreversible block) is an error naming the blocks.
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
	b := &branch{t: t}
	var cursor ship.Cursor
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 31}) {
		if err != nil {
			t.Fatal(err)
		}
		b.event(ev)
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
		b.event(ev)
	}
	b.matches(chain)
	if undone != 5 || b.blocks[len(b.blocks)-1].Num != 35 {
		t.Errorf("undone %d, last %v", undone, b.blocks[len(b.blocks)-1])
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.StartBlockNum != 31 || len(last.HavePositions) != 11 {
		t.Errorf("resume request: start %d, %d positions", last.StartBlockNum, len(last.HavePositions))
	}
}

var _ = antelope.Name(0)
