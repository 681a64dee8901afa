package chain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// blockInterval is how often an Antelope chain makes a block: how long
// settle waits between looks at the chain.
const blockInterval = 500 * time.Millisecond

// settle finds out what became of a send whose answers left its outcome
// open (or proved nothing: tx_duplicate, expired_tx_exception).
//
// First get_transaction_status, where the node has it: a block state is
// believed only when the answer is about this transaction — spring's
// answer carries no id, so its expiration must be the signed one and the
// block it names must hold this id. Then the blocks since the
// transaction's reference block are read (get_block) until one holds it
// (executed) or a block later than its expiration is irreversible and
// none did (*NotExecutedError: a block stamped exactly at the expiration
// can still include it). A node behind the others answers
// unknown_block_exception for a block above its head: that is "not yet".
// When the chain stops showing new blocks, or ctx ends, the error is an
// *UnknownOutcomeError.
func (s *sender) settle(ctx context.Context, last error) (*TransactResult, error) {
	uo := &UnknownOutcomeError{ID: s.id, Transaction: s.signed, Err: last}
	if ctx.Err() != nil {
		uo.StatusErr = fmt.Errorf("not looked up: %w", context.Cause(ctx))
		return nil, uo
	}
	st, err := s.c.GetTransactionStatus(ctx, s.id)
	switch {
	case err != nil:
		uo.StatusErr = err
	case st.Executed():
		if err := s.c.confirmStatus(ctx, s.signed, s.id, st); err != nil {
			uo.StatusErr = err
			break
		}
		return &TransactResult{ID: s.id, BlockNum: st.BlockNum, BlockTime: st.BlockTime, Transaction: s.signed,
			AlreadySubmitted: true, Status: st, Attempts: s.requests}, nil
	default:
		uo.Status = st
	}
	res, notExec, err := s.scan(ctx)
	switch {
	case res != nil:
		return res, nil
	case notExec != nil:
		notExec.Err = last
		return nil, notExec
	}
	uo.BlocksErr = err
	return nil, uo
}

// confirmStatus checks that get_transaction_status's block state st is
// about signed (id): the expiration it reports is the signed one, and the
// block it names holds id. A cache, a proxy or a node that mixes answers
// up otherwise settles a send with another transaction's block.
func (c *Client) confirmStatus(ctx context.Context, signed *antelope.SignedTransaction, id antelope.Checksum256, st *TransactionStatus) error {
	if st.Expiration != 0 && st.Expiration.Time().Unix() != int64(signed.Expiration) {
		return fmt.Errorf("get_transaction_status answered about another transaction: expiration %s, not %s",
			st.Expiration, signed.Expiration)
	}
	b, err := c.GetBlock(ctx, st.BlockNum)
	switch {
	case err != nil:
		return fmt.Errorf("get_transaction_status named block %d, which could not be read: %w", st.BlockNum, err)
	case st.BlockID != (antelope.Checksum256{}) && b.ID != st.BlockID:
		return fmt.Errorf("get_transaction_status named block %d with id %s; the block's id is %s", st.BlockNum, st.BlockID, b.ID)
	case !b.executed(id):
		return fmt.Errorf("get_transaction_status named block %d, which does not hold transaction %s", st.BlockNum, id)
	}
	return nil
}

// scan reads the blocks since signed's reference block until one holds it
// (the result) or an irreversible block is later than its expiration
// (*NotExecutedError); otherwise it says why it stopped.
func (s *sender) scan(ctx context.Context) (*TransactResult, *NotExecutedError, error) {
	t := s.c.transport
	budget := t.Attempts()
	expiration := time.Unix(int64(s.signed.Expiration), 0)
	var next, peek uint32             // the next irreversible block to read; the highest reversible one read
	var last antelope.TimePoint       // the time of the last irreversible block read
	var prev antelope.Checksum256     // the id of the last irreversible block read (first: the reference block)
	var expiredAt uint32              // the first irreversible block read later than the expiration
	var target uint32                 // then get_info's last irreversible block, where the blocks read must lead
	var targetID antelope.Checksum256 // and its id
	var why error
	for stalls := 0; stalls < budget; {
		read := false
		info, err := s.c.GetInfo(ctx)
		if err != nil {
			why = err
		} else if next == 0 {
			next, prev, err = s.c.firstBlockAfterRef(ctx, &s.signed.Transaction, info.HeadBlockNum)
			if err != nil {
				why = err
			}
		}
		// Irreversible blocks: each read once, in order; a miss counts.
		// Behind a balancer the block of a number can come from a node
		// on another fork: each must link to the one before it, back to
		// the reference block, and "not executed" waits until the blocks
		// read link up to a last irreversible block's id.
		for info != nil && next != 0 && next <= info.LastIrreversibleBlockNum && ctx.Err() == nil {
			b, err := s.c.GetBlock(ctx, next)
			if err != nil {
				why = err
				break
			}
			// Block times rise: at most one block a half second can
			// come before the expiration, whatever a node says.
			if b.Timestamp <= last || b.Previous != prev {
				why = fmt.Errorf("block %d does not follow the block %d read before it (another fork, or a node's mistake)", b.BlockNum, b.BlockNum-1)
				next, last, expiredAt, read = 0, 0, 0, false
				break
			}
			read, last, prev = true, b.Timestamp, b.ID
			if b.executed(s.id) {
				return s.found(b), nil, nil
			}
			if expiredAt == 0 && b.Timestamp.Time().After(expiration) {
				// The last irreversible block as of now is where the
				// blocks read must lead.
				expiredAt, target, targetID = b.BlockNum, info.LastIrreversibleBlockNum, info.LastIrreversibleBlockID
			}
			if expiredAt != 0 && b.BlockNum == target {
				if b.ID == targetID {
					return nil, &NotExecutedError{ID: s.id, Transaction: s.signed, Block: expiredAt}, nil
				}
				why = fmt.Errorf("the blocks read up to %d are not the last irreversible block's chain (id %s, not %s)", b.BlockNum, b.ID, targetID)
				next, last, expiredAt, read = 0, 0, 0, false
				break
			}
			next++
		}
		// Reversible blocks: only to find it sooner; a miss is read
		// again once irreversible (the block may be forked out).
		for n := max(peek+1, next); info != nil && next != 0 && expiredAt == 0 && n <= info.HeadBlockNum && ctx.Err() == nil; n++ {
			b, err := s.c.GetBlock(ctx, n)
			if err != nil {
				why = err
				break
			}
			read, peek = true, n
			if b.executed(s.id) {
				return s.found(b), nil, nil
			}
			if b.Timestamp.Time().After(expiration) {
				break
			}
		}
		if read {
			stalls = 0
		} else {
			stalls++
		}
		if err := t.Wait(ctx, 1, blockInterval); err != nil {
			return nil, nil, fmt.Errorf("reading the blocks since the send: %w", context.Cause(ctx))
		}
	}
	if why == nil {
		why = errors.New("no new block")
	}
	return nil, nil, fmt.Errorf("the chain showed no new block in %d looks (last: %w)", budget, why)
}

// found is the result of a send settled by block b holding it.
func (s *sender) found(b *Block) *TransactResult {
	return &TransactResult{ID: s.id, BlockNum: b.BlockNum, BlockTime: b.Timestamp, Transaction: s.signed,
		AlreadySubmitted: true, Attempts: s.requests}
}

// firstBlockAfterRef is the number of the block after tx's reference
// block, whose low 16 bits tx carries, as of head: the first block that can
// hold tx, and the reference block's id. The reference block's id must carry tx's ref_block_prefix; a
// node behind the one tx was built from does not have it yet.
func (c *Client) firstBlockAfterRef(ctx context.Context, tx *antelope.Transaction, head uint32) (uint32, antelope.Checksum256, error) {
	var none antelope.Checksum256
	ref := head&^0xffff | uint32(tx.RefBlockNum)
	if ref > head {
		if ref < 0x10000 {
			return 0, none, fmt.Errorf("reference block %d is above the node's head %d", ref, head)
		}
		ref -= 0x10000
	}
	b, err := c.GetBlockInfo(ctx, ref)
	if err != nil {
		return 0, none, err
	}
	if b.RefBlockPrefix != tx.RefBlockPrefix {
		return 0, none, fmt.Errorf("block %d is not the transaction's reference block (prefix %d, not %d)", ref, b.RefBlockPrefix, tx.RefBlockPrefix)
	}
	return ref + 1, b.ID, nil
}
