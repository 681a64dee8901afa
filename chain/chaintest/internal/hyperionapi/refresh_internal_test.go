package hyperionapi

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/shiptest"
)

// changingChain is a Chain whose blocks a test changes in the middle of
// the API's reads: after a Heads or Block call has read them, as a test
// forking the chain while a client reads Hyperion does.
type changingChain struct {
	*shiptest.Chain
	during func()                                        // called after each read, before it returns
	prev   map[antelope.Checksum256]antelope.Checksum256 // every block read: its previous id
}

func (c *changingChain) Heads() (uint32, uint32) {
	h, l := c.Chain.Heads()
	c.during()
	return h, l
}

func (c *changingChain) Block(n uint32) (shiptest.Block, bool) {
	b, ok := c.Chain.Block(n)
	if ok {
		c.prev[b.ID] = b.Previous
	}
	c.during()
	return b, ok
}

func (c *changingChain) Blocks() shiptest.BlockSource           { return c }
func (c *changingChain) FirstBlock() uint32                     { return 1 }
func (c *changingChain) ChainAPI(string, []byte) (int, any)     { return 404, nil }
func (c *changingChain) BadRequest(detail string) (int, any)    { return 400, detail }
func (c *changingChain) ChainID() antelope.Checksum256          { return antelope.Checksum256{} }
func (c *changingChain) HeadTime() time.Time                    { return time.Time{} }
func (c *changingChain) Subscribe(func(uint32)) (cancel func()) { return func() {} }
func (c *changingChain) block(n uint32) (shiptest.Block, bool)  { return c.Chain.Block(n) }
func (c *changingChain) heads() (head, lib uint32)              { return c.Chain.Heads() }
func newChangingChain() *changingChain {
	return &changingChain{Chain: shiptest.NewChain(), during: func() {}, prev: map[antelope.Checksum256]antelope.Checksum256{}}
}

// A fork in the middle of the index's refresh once made one answer hold
// blocks of both branches: the replaced branch's blocks up to where the
// read was, the new branch's above. Every index a refresh returns, while
// the chain grows, forks and finalizes in the middle of its every read,
// is one branch: each block's previous id is the block below it. When the
// chain stops changing, the index is the chain.
func TestRefreshIsOneBranchWhileTheChainChanges(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 9))
		c := newChangingChain()
		c.ProduceEmpty(1 + rng.IntN(5))
		changes := 0
		c.during = func() {
			if changes >= 40 || rng.IntN(4) != 0 {
				return
			}
			changes++
			head, lib := c.heads()
			switch rng.IntN(4) {
			case 0:
				c.ProduceEmpty(1 + rng.IntN(3))
			case 1:
				c.SetLastIrreversible(lib + uint32(rng.IntN(int(head-lib)+1)))
			case 2:
				c.Fork(lib + uint32(rng.IntN(int(head-lib)+1)))
			case 3:
				c.ForkWith(lib+uint32(rng.IntN(int(head-lib)+1)), make([]shiptest.BlockData, rng.IntN(4))...)
			}
		}
		h := New(c)
		for changes < 40 {
			blocks, _, _ := h.refresh()
			for i := 1; i < len(blocks); i++ {
				if p := c.prev[blocks[i].id]; p != blocks[i-1].id {
					t.Fatalf("seed %d: indexed block %d follows %x, but its previous is %x: two branches in one index", seed, i+1, blocks[i-1].id[:8], p[:8])
				}
			}
		}
		blocks, head, _ := h.refresh()
		if len(blocks) != int(head) {
			t.Fatalf("seed %d: %d blocks indexed of %d", seed, len(blocks), head)
		}
		for i, b := range blocks {
			if want, _ := c.block(uint32(i + 1)); b.id != want.ID {
				t.Fatalf("seed %d: block %d indexed is not the chain's", seed, i+1)
			}
		}
	}
}
