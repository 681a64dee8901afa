package chaintest

import (
	"cmp"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/blocklog"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/ship/shiptest"
)

// What chaintest keeps of its blocks beyond the state service's tables
// (c.history): what each block's transactions did and which accounts it
// created or gave an ABI (for state history, shipblock.go), the rest of the
// state as of each reversible block (for Rollback, fork.go), finality, and
// who is told of changes.

// blockLog is the chain's record of its blocks: the records, finality,
// branch and subscribers are blocklog.Log's (Records[i] is block
// opts.firstBlock+i, Chain.index); what is execution's stays here.
type blockLog struct {
	blocklog.Log[*committedTx, exec.State]
	pending *committedTx // the transaction of the block being produced

	shipOnce  sync.Once // the state-history endpoint, made on first use
	ship      *shiptest.Server
	pipe      *pipeListener     // its in-memory listener, for a chain without network
	transport http.RoundTripper // and the transport to it
}

// blockRecord is one block's record.
type blockRecord = blocklog.Record[*committedTx, exec.State]

// committedTx is a transaction as executed in its block.
type committedTx struct {
	trx    *exec.TrxContext
	packed antelope.PackedTransaction // as sent, for the signed block
}

// accountChange is an account created, or given an ABI, in a block (an
// account delta).
type accountChange = blocklog.AccountChange

// produceTx produces the block of an executed transaction.
func (c *Chain) produceTx(trx *exec.TrxContext, packed *antelope.PackedTransaction) Block {
	trx.Undo = exec.UndoLog{} // committed: what it saved to undo need not be kept
	c.blocklog.pending = &committedTx{trx: trx, packed: *packed}
	return c.produce([]antelope.Checksum256{trx.ID})
}

// recordBlock records the block just produced (b is the head): its
// transaction, the accounts it created or gave an ABI, and the state, and
// tells the subscribers.
func (c *Chain) recordBlock(b Block) {
	l := &c.blocklog
	var r blockRecord
	if l.pending != nil {
		r.Txs, l.pending = []*committedTx{l.pending}, nil
	}
	var prev *exec.State
	if n := len(l.Records); n > 0 {
		prev = l.Records[n-1].State
	}
	r.Accounts = c.accountChanges(b.Num, prev)
	r.State = c.engine.SaveState()
	l.Append(r, c.opts.firstBlock, c.headNum())
	c.notify(b.Num)
}

// accountChanges lists the accounts block num created (all of them for
// the first block: a state-history log's first block carries the whole
// state) and those it set an ABI for, by name, the changed before the new
// as nodeos lists a table's modified rows before its new ones.
func (c *Chain) accountChanges(num uint32, prev *exec.State) []accountChange {
	var changed, created []accountChange
	for n, a := range c.engine.Accounts {
		isNew := prev == nil || prev.Accounts[n] == nil
		vs := c.engine.ABIs[n]
		if !isNew && (len(vs) == 0 || vs[len(vs)-1].Block != num) {
			continue
		}
		ch := accountChange{Name: n, Created: a.Created, IsNew: isNew, ABI: []byte{}}
		if ct := c.engine.Contract(n); ct != nil {
			if abi := ct.Packed(); abi != nil {
				ch.ABI = abi
			}
		}
		if isNew {
			created = append(created, ch)
		} else {
			changed = append(changed, ch)
		}
	}
	byName := func(a, b accountChange) int { return cmp.Compare(a.Name, b.Name) }
	slices.SortFunc(changed, byName)
	slices.SortFunc(created, byName)
	return append(changed, created...)
}

// lastIrreversible is the last irreversible block's number: the head,
// unless the chain was made WithManualFinality (then the genesis block
// until SetLastIrreversible moves it).
func (c *Chain) lastIrreversible() uint32 {
	return c.blocklog.LastIrreversible(c.opts.firstBlock, c.headNum())
}

// blockID is the id of block num (blocklog.ID).
func (c *Chain) blockID(num uint32, prev antelope.Checksum256, t time.Time, txs []antelope.Checksum256, branch uint32) antelope.Checksum256 {
	return blocklog.ID(c.engine.ChainID, c.genesisSalt, num, prev, t, txs, branch)
}

// subscribe calls changed on every change of the blocks, with c.mu held
// (blocklog.Subscribers).
func (c *Chain) subscribe(changed func(from uint32)) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := c.blocklog.Subs.Add(changed)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.blocklog.Subs.Remove(key)
	}
}

// notify tells the subscribers of a change; c.mu is held.
func (c *Chain) notify(from uint32) { c.blocklog.Subs.Notify(from) }
