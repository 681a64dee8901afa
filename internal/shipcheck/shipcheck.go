// Package shipcheck checks a state-history stream as spring's
// ship_streamer test checks one, for the tests of package ship and of the
// chains that serve it (shiptest, chaintest).
package shipcheck

import (
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
)

// Branch is a consumer that checks spring's ship_streamer invariant: every
// delivered block links to the block delivered at n-1 on the current
// branch, and an Undo removes exactly the newest blocks, before anything
// is delivered again at their numbers.
type Branch struct {
	T      testing.TB
	Blocks []ship.Position // the current branch as delivered, consecutive
	Undos  int             // the Undo events seen
	Undone int             // the blocks they undid
}

// Event checks and applies one event.
func (b *Branch) Event(ev ship.Event) {
	b.T.Helper()
	if ev.Undo != nil {
		b.Undos++
		for _, p := range ev.Undo.Blocks {
			if len(b.Blocks) == 0 || b.Blocks[len(b.Blocks)-1] != p {
				b.T.Fatalf("undo of %v, but the newest block is not it (%d held)", p, len(b.Blocks))
			}
			b.Blocks = b.Blocks[:len(b.Blocks)-1]
			b.Undone++
		}
		return
	}
	blk := ev.Block
	if n := len(b.Blocks); n > 0 {
		last := b.Blocks[n-1]
		if blk.Num != last.Num+1 {
			b.T.Fatalf("block %d delivered after %d without an undo", blk.Num, last.Num)
		}
		if blk.Previous != last.ID {
			b.T.Fatalf("block %d does not link to the delivered block %v", blk.Num, last)
		}
	}
	b.Blocks = append(b.Blocks, blk.Position)
}

// Last is the last block delivered on the current branch.
func (b *Branch) Last() ship.Position {
	if len(b.Blocks) == 0 {
		return ship.Position{}
	}
	return b.Blocks[len(b.Blocks)-1]
}

// Matches checks the delivered branch against the chain's: id gives the id
// of the chain's block n, or false when it has none.
func (b *Branch) Matches(id func(n uint32) (antelope.Checksum256, bool)) {
	b.T.Helper()
	for _, p := range b.Blocks {
		want, ok := id(p.Num)
		if !ok || want != p.ID {
			b.T.Fatalf("block %d delivered as %v is not on the chain's branch", p.Num, p.ID)
		}
	}
}
