package chaintest

// Finality and forks: the last irreversible block under the test's
// control, and blocks above it replaced by a new branch, for testing code
// that follows the chain (an indexer over state history, a wallet showing
// pending transfers) through what nodes do on a live network.

// WithManualFinality makes the last irreversible block move only when
// SetLastIrreversible moves it; it starts at the genesis block. The blocks
// a test produces then stay reversible: Fork and Rollback can replace
// them, state-history readers hold them as reversible (a ship.Cursor keeps
// them, to send back as have_positions), and get_info, the state service
// and get_transaction_status (IN_BLOCK) report them so. Without it every
// block is irreversible as soon as it is produced (instant finality), and
// nothing can replace it.
//
// The chain keeps the state as of every reversible block, to go back to:
// move the last irreversible block on in long tests.
func WithManualFinality() Option { return func(o *options) { o.manualFinality = true } }

// SetLastIrreversible makes block n the last irreversible block, on a
// chain made WithManualFinality. Finality moves forward only, and not past
// the head. State-history readers learn it with the next block they are
// sent.
func (c *Chain) SetLastIrreversible(n uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.blocklog.SetLastIrreversible(n, c.opts.firstBlock, c.headNum()); err != nil {
		return err
	}
	c.notify(0)
	return nil
}

// LastIrreversible returns the last irreversible block: the head, unless
// the chain was made WithManualFinality.
func (c *Chain) LastIrreversible() Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	return *c.block(c.lastIrreversible())
}

// Fork replaces the blocks above n by a new branch of as many blocks, as a
// micro-fork does when the node switches to another producer's branch
// that holds the same transactions: the chain goes back to the end of
// block n and applies the dropped blocks' transactions again, each in a
// new block at the same height and time, with the same results
// (chaintest is deterministic) — what changes is every block id above n,
// and so the blocks' previous ids. State-history readers are sent the new
// branch from block n+1 (a ship stream delivers an Undo of the replaced
// blocks, then the new ones); a transaction that refers to a replaced
// block (TAPoS) is refused from then on. Rollback makes a new branch that
// differs.
//
// The chain must be made WithManualFinality, and n must be at or above
// the last irreversible block and below the head.
func (c *Chain) Fork(n uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.checkFork("Fork", n); err != nil {
		return err
	}
	l := &c.blocklog
	l.Rebranch(c.index(n))
	for i := c.index(n) + 1; i < len(c.blocks); i++ {
		b := &c.blocks[i]
		b.Previous = c.blocks[i-1].ID
		b.ID = c.blockID(b.Num, b.Previous, b.Time, b.Transactions, l.Branch)
	}
	c.notify(n + 1)
	return nil
}

// Rollback drops the blocks above n and what they did: the chain's state
// (tables, accounts, contracts and their ABIs, parameters) is again what
// it was at the end of block n, n is the head, and the dropped blocks'
// transactions are forgotten — they may be sent again. What the test does
// next (transactions, Produce) makes the new branch, which may differ in
// any way from the old one; its blocks have new ids even where they hold
// the same. State-history readers are rewound at once, and see the fork
// when the new branch's first block is produced (until then they hold the
// replaced blocks, as a node's readers do until a better branch arrives).
//
// The chain must be made WithManualFinality, and n must be at or above
// the last irreversible block and below the head.
func (c *Chain) Rollback(n uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.checkFork("Rollback", n); err != nil {
		return err
	}
	l := &c.blocklog
	k := c.index(n)
	c.engine.DB.Restore(c.history[k])
	c.engine.RestoreState(l.Records[k].State)
	for id, num := range c.seen {
		if num > n {
			delete(c.seen, id)
		}
	}
	c.blocks, c.history = c.blocks[:k+1], c.history[:k+1]
	l.Truncate(k)
	c.notify(n + 1)
	return nil
}

func (c *Chain) checkFork(what string, n uint32) error {
	return c.blocklog.CheckFork(what, n, c.opts.firstBlock, c.headNum())
}
