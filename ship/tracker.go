package ship

import (
	"errors"
	"fmt"
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// Errors a stream ends with. Match them with errors.Is.
var (
	// ErrGap: the node skipped a block number. No correct node does; a
	// stream never skips silently. Terminal.
	ErrGap = errors.New("ship: the node skipped blocks")
	// ErrForkBelowReversible: the node rolled back to a block the stream
	// cannot undo: at or below the last irreversible block already
	// reported (in this stream or the one its cursor came from) by a node
	// that holds its own branch final there (one that does not is behind:
	// the stream tries again), or below the oldest block the cursor holds. What was derived from the blocks
	// in between cannot be undone block by block. Terminal.
	ErrForkBelowReversible = errors.New("ship: fork below the reversible blocks this stream holds")
	// ErrNoBlock: the node has no block at the number the stream needs
	// (this_block is null: it started from a snapshot, or its log was
	// pruned). Terminal.
	ErrNoBlock = errors.New("ship: the node does not have the block")
	// ErrBrokenNode: the node sent what no correct node sends — with
	// FinalOnly, a block above its last irreversible block; a last
	// irreversible block above its head; a block without prev_block where
	// the stream must check the link; block 0. Nothing of it is
	// delivered: the stream reconnects (a load balancer may pick a sound
	// node) and ends with this error after three such answers in a row.
	ErrBrokenNode = errors.New("ship: the node sent what no correct node sends")
	// ErrOtherChain: the node serves another chain than the cursor's (its
	// status reports another chain_id): a wrong URL, or a load balancer
	// mixing networks. Terminal.
	ErrOtherChain = errors.New("ship: the node serves another chain than the cursor's")
)

// behindError is a node whose last irreversible block is below a block it
// sends that the stream already reported final: it is behind.
type behindError struct{ n, nodeLIB, lib uint32 }

func (e *behindError) Error() string {
	return fmt.Sprintf("ship: the node sent block %d with its last irreversible block %d, but the stream already reported block %d final: the node is behind; trying again", e.n, e.nodeLIB, e.lib)
}

// errRelink is a block whose prev_block does not match the block the
// stream holds at that number without a rewind: the node's view changed in
// a way the stream was not told about. A new request with have_positions
// makes the node rewind to the fork point.
var errRelink = errors.New("ship: prev_block does not link to the last block delivered")

// tracker applies the ordering rules to each block result: consecutive
// numbers, a rewind is a fork whose undone blocks are reported first, every
// block links to the one delivered below it, nothing at or below a last
// irreversible block already seen is undone, and the reversible positions
// are kept for the cursor.
type tracker struct {
	// held is delivered and reversible, ascending; the last is the last
	// delivered. Cursors share it: it is only appended to past their
	// length, resliced, or replaced by a copy — never written in place.
	held      []Position
	start     uint32               // the first block the stream delivers (Request.Start); 0: not known yet
	lib       uint32               // the highest last irreversible block reported with a delivered block
	chain     antelope.Checksum256 // the chain's id, once known
	finalOnly bool                 // every delivered block is final (Request.FinalOnly)
	// passed are the blocks passed over below start, ascending and
	// consecutive, each linking to the one below: a fork that reaches
	// below the first block delivered makes the node send blocks the
	// stream never delivers. The start must link to them, what they set
	// (ABIs) counts only as far as they go, and a new request names them
	// in have_positions so that the node rewinds to where its branch
	// leaves them.
	passed []Position
	// startPrev is the id of the block below start, as the first block
	// delivered gave it (prev_block); zero: not known (a resumed stream).
	startPrev antelope.Checksum256
	// forget, when not 0, is the first block whose ABI changes the ABI
	// history must forget, as accept found: a rewind's first block, or
	// one among the blocks passed over.
	forget uint32
	// unseen, when not 0, is a block below start the stream did not see
	// (nor some below it), as accept found: the ABIs set before it are
	// unknown after it.
	unseen uint32
}

// resumeTracker is the tracker of a stream that resumes from c, or starts
// at start when c is zero.
func resumeTracker(c Cursor, start uint32, finalOnly bool) *tracker {
	if c.IsZero() {
		return &tracker{start: start, finalOnly: finalOnly}
	}
	return &tracker{held: c.held[:len(c.held):len(c.held)], start: c.start, lib: c.lib, chain: c.chain, finalOnly: finalOnly}
}

func broken(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBrokenNode}, args...)...)
}

// accept checks the next block. It returns the blocks a fork undoes
// (newest first), whether to deliver the block (false: it is below the
// stream's start, or a block delivered already sent again), or an error.
func (t *tracker) accept(r *blocksResult) (undo []Position, deliver bool, err error) {
	if !r.hasThis {
		next := t.start
		if len(t.held) > 0 {
			next = t.held[len(t.held)-1].Num + 1
		}
		return nil, false, fmt.Errorf("%w %d (this_block is null): it may have started from a snapshot or pruned its state-history log; ask Client.Status for the blocks it serves and start within them", ErrNoBlock, next)
	}
	n := r.this.Num
	switch {
	case n == 0:
		return nil, false, broken("it sent block 0")
	case r.lib.Num > r.head.Num:
		return nil, false, broken("with block %d, it reported its last irreversible block %d above its head %d", n, r.lib.Num, r.head.Num)
	case n > r.head.Num:
		return nil, false, broken("it sent block %d above its head %d", n, r.head.Num)
	case t.finalOnly && n > r.lib.Num:
		return nil, false, broken("asked for irreversible blocks only, it sent block %d above its last irreversible block %d", n, r.lib.Num)
	}
	// A block the stream would deliver at or below the last irreversible
	// block it reported (with a block of another node, or before a
	// restart), which this node does not hold final yet, may be of a
	// branch that is not: a node lagging behind a load balancer. Another
	// node, or this one later, can say. (A rewind there is worse: below.)
	behind := func() error {
		if n <= t.lib && n > r.lib.Num {
			return &behindError{n: n, nodeLIB: r.lib.Num, lib: t.lib}
		}
		return nil
	}
	// The fork rule below uses the last irreversible block as reported
	// with the blocks delivered (delivered records it), never one that
	// came with a block not delivered: blocks held as reversible may be
	// replaced and the new ones made irreversible before the node tells
	// us (while we were away, or with a block that does not link), and
	// that last irreversible block is on the new branch, not ours.
	lib := t.lib
	// linksTo checks the block's prev_block against p, the block the
	// stream delivered (or passed over) below it.
	linksTo := func(p Position) error {
		if !r.hasPrev {
			return broken("block %d came without prev_block: the stream cannot check that it links to block %d", n, p.Num)
		}
		if r.prev.Num != p.Num || r.prev.ID != p.ID {
			return errRelink
		}
		return nil
	}
	// unlinked: a block the stream cannot check to link to a block it
	// holds (all of it undone, or a rewind to the start or below) has
	// ancestors the stream never saw; that they include the blocks
	// reported final is believed only from a node that holds them final.
	// A lagging node may still be on a branch that left them.
	unlinked := func() error {
		if r.lib.Num < t.lib {
			return &behindError{n: n, nodeLIB: r.lib.Num, lib: t.lib}
		}
		return nil
	}
	if len(t.held) == 0 {
		switch {
		case t.start == 0 || n == t.start:
			if err := behind(); err != nil {
				return nil, false, err
			}
			if err := unlinked(); err != nil {
				return nil, false, err
			}
			if k := len(t.passed); k > 0 {
				if top := t.passed[k-1]; top.Num+1 == n {
					if err := linksTo(top); err != nil {
						return nil, false, err
					}
				} else {
					// The blocks passed over stop short of this one (a
					// connection dropped among them): what the blocks
					// in between set is not known.
					t.unseen = n - 1
				}
			}
			t.start, t.passed = n, nil
			if r.hasPrev {
				t.startPrev = r.prev.ID
			}
			return nil, true, nil
		case n < t.start:
			// A rewound block the stream never delivers.
			if err := unlinked(); err != nil {
				return nil, false, err
			}
			k := len(t.passed)
			switch {
			case k > 0 && n == t.passed[k-1].Num+1:
				if err := linksTo(t.passed[k-1]); err != nil {
					return nil, false, err
				}
			case k > 0 && n > t.passed[k-1].Num+1:
				return nil, false, fmt.Errorf("%w: block %d follows %d (below the start %d)", ErrGap, n, t.passed[k-1].Num, t.start)
			case k > 0 && n > t.passed[0].Num:
				// A rewind among them: the node's branch leaves theirs
				// at n, and its n links to their n-1.
				i := int(n - t.passed[0].Num)
				if err := linksTo(t.passed[i-1]); err != nil {
					return nil, false, err
				}
				t.passed, t.forget = t.passed[:i], n
			default:
				t.passed, t.forget = t.passed[:0], n // below all of them
			}
			t.passed = append(t.passed, r.this)
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("%w: asked to start at %d, got %d first", ErrGap, t.start, n)
	}
	last := t.held[len(t.held)-1]
	switch {
	case n == last.Num+1:
		if err := behind(); err != nil {
			return nil, false, err
		}
		return nil, true, linksTo(last)
	case n > last.Num+1:
		return nil, false, fmt.Errorf("%w: block %d follows %d", ErrGap, n, last.Num)
	}
	// A rewind: the blocks from n on are replaced. They must be above the
	// last irreversible block, and either held (to be undone) or below the
	// first block the stream delivered (all it holds is undone, and the
	// blocks below its start are passed over). A rewind to the oldest
	// held block is one only when that is the start: otherwise the block
	// below it, which the new one must link to, is no longer held.
	first := t.held[0].Num
	if n >= first && t.held[n-first].ID == r.this.ID {
		return nil, false, nil // a block delivered already, sent again: nothing changed at n
	}
	if n <= lib && n > r.lib.Num {
		// A rewind to a block reported final that this node does not
		// hold final: a lagging node on a branch it has not left yet.
		// Only a node that holds it final contradicts it (below).
		return nil, false, &behindError{n: n, nodeLIB: r.lib.Num, lib: lib}
	}
	if n <= lib || n <= first && first != t.start {
		return nil, false, t.belowFinal(n, lib)
	}
	if n <= first {
		if err := unlinked(); err != nil {
			return nil, false, err
		}
	}
	if n == t.start && n > 1 && n-1 <= lib {
		// The start replaced, with the block below it reported final: a
		// node that does not hold that block final is behind; one that
		// does, on another parent than the stream saw, contradicts it.
		switch {
		case r.lib.Num < n-1:
			return nil, false, &behindError{n: n - 1, nodeLIB: r.lib.Num, lib: lib}
		case r.hasPrev && t.startPrev != (antelope.Checksum256{}) && r.prev.ID != t.startPrev:
			return nil, false, t.belowFinal(n-1, lib)
		}
	}
	i := 0
	if n > first {
		i = int(n - first)
		if err := linksTo(t.held[i-1]); err != nil {
			return nil, false, err
		}
	}
	for j := len(t.held) - 1; j >= i; j-- {
		undo = append(undo, t.held[j])
	}
	t.forget = n
	if n == t.start && n > 1 && !(r.hasPrev && t.startPrev != (antelope.Checksum256{}) && r.prev.ID == t.startPrev) {
		// The start itself is replaced, on another parent (or one the
		// stream cannot compare): the fork reaches below the start, how
		// far the node does not say (have_positions reach no lower).
		t.forget, t.unseen = n-1, n-1
	}
	if n < first {
		t.passed = []Position{r.this}
		return undo, false, nil
	}
	if n == t.start && r.hasPrev {
		t.startPrev = r.prev.ID
	}
	return undo, true, nil
}

func (t *tracker) belowFinal(n, lib uint32) error {
	first, last := t.start, t.start
	if len(t.held) > 0 {
		first, last = t.held[0].Num, t.held[len(t.held)-1].Num
	}
	return fmt.Errorf("%w: the node went back to block %d; the stream holds %d to %d (last irreversible %d): restore your state as of block %d or earlier and resume from there",
		ErrForkBelowReversible, n, first, last, lib, n-1)
}

// undo forgets the newest k held blocks (a fork undid them). The positions
// are copied: cursors taken before keep theirs.
func (t *tracker) undo(k int) {
	t.held = slices.Clone(t.held[:len(t.held)-k])
}

// delivered records a block handed to the consumer (after any undo).
func (t *tracker) delivered(p Position, lib uint32) {
	if len(t.held) > 0 && p.Num <= t.held[len(t.held)-1].Num {
		t.undo(int(t.held[len(t.held)-1].Num - p.Num + 1))
	}
	t.held = append(t.held, p)
	t.lib = max(t.lib, lib)
	if t.finalOnly {
		t.lib = max(t.lib, p.Num)
	}
	// Keep the blocks above the last irreversible one, and that one (the
	// next block links to it), at most maxHeld.
	k := max(len(t.held)-maxHeld, 0)
	for k < len(t.held)-1 && t.held[k].Num < t.lib {
		k++
	}
	t.held = t.held[k:]
}

// settled is the highest block no fork the stream accepts can undo: the
// last irreversible block or, once a stall made the cursor let its oldest
// positions go, the oldest it holds (a rewind to it or below is refused).
func (t *tracker) settled() uint32 {
	s := t.lib
	if len(t.held) > 0 && t.held[0].Num != t.start {
		s = max(s, t.held[0].Num)
	}
	return s
}

// cursor is the cursor after the blocks delivered so far. It shares the
// held positions (see held): taking one costs no copy.
func (t *tracker) cursor() Cursor {
	return Cursor{held: t.held[:len(t.held):len(t.held)], chain: t.chain, lib: t.lib, start: t.start}
}

// resume is where a request continues: after the last block, with the held
// positions as have_positions (or at the start, with the blocks passed
// over below it).
func (t *tracker) resume() (start uint32, have []Position) {
	if len(t.held) == 0 {
		// Blocks passed over below the start, if any: if the node's
		// branch left theirs, it rewinds to where, and the start links
		// to what it sends (otherwise it could not).
		return t.start, t.passed
	}
	return t.held[len(t.held)-1].Num + 1, t.held
}
