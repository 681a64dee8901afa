package ship

import (
	"errors"
	"fmt"
)

// Errors a stream ends with. They are terminal: reconnecting cannot fix
// them. Match them with errors.Is.
var (
	// ErrGap: the node skipped a block number. No correct node does; a
	// stream never skips silently.
	ErrGap = errors.New("ship: the node skipped blocks")
	// ErrForkBelowReversible: the node rolled back below the oldest block
	// the stream holds as reversible, so what was derived from the blocks
	// in between cannot be undone block by block.
	ErrForkBelowReversible = errors.New("ship: fork below the reversible blocks this stream holds")
	// ErrNoBlock: the node has no block at the number the stream needs
	// (this_block is null: it started from a snapshot, or its log was
	// pruned).
	ErrNoBlock = errors.New("ship: the node does not have the block")
)

// errRelink is a block whose prev_block does not match the block the
// stream holds at that number without a rewind: the node's view changed in
// a way the stream was not told about. A new request with have_positions
// makes the node rewind to the fork point.
var errRelink = errors.New("ship: prev_block does not link to the last block delivered")

// tracker applies the ordering rules to each block result: consecutive
// numbers, a rewind is a fork whose undone blocks are reported first, every
// block links to the one delivered below it, and the reversible positions
// are kept for the cursor.
type tracker struct {
	held  []Position // delivered and reversible, ascending; the last is the last delivered
	start uint32     // the first block the stream delivers (Request.Start); 0: not known yet
	lib   uint32     // the node's last irreversible block, as last reported
	// below is the last block seen below start: a fork that reaches below
	// the first block delivered makes the node send blocks the stream
	// never delivers; the first delivered block must link to them.
	below Position
}

// accept checks the next block. It returns the blocks a fork undoes
// (newest first), whether to deliver the block (false: it is below the
// stream's start), or an error.
func (t *tracker) accept(r *blocksResult) (undo []Position, deliver bool, err error) {
	if !r.hasThis {
		next := t.start
		if len(t.held) > 0 {
			next = t.held[len(t.held)-1].Num + 1
		}
		return nil, false, fmt.Errorf("%w %d (this_block is null): it may have started from a snapshot or pruned its state-history log; ask Client.Status for the blocks it serves and start within them", ErrNoBlock, next)
	}
	// The fork rule below uses the last irreversible block as known before
	// this block: blocks held as reversible may be replaced and the new
	// ones made irreversible before the node tells us (while we were away).
	lib := t.lib
	t.lib = max(t.lib, r.lib.Num)
	n := r.this.Num
	if len(t.held) == 0 {
		switch {
		case t.start == 0 || n == t.start:
			if t.below.Num != 0 && t.below.Num+1 == n && r.hasPrev && r.prev.ID != t.below.ID {
				return nil, false, errRelink
			}
			t.start = n
			return nil, true, nil
		case n < t.start:
			t.below = r.this // a rewound block the stream never delivered
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("%w: asked to start at %d, got %d first", ErrGap, t.start, n)
	}
	last := t.held[len(t.held)-1]
	switch {
	case n == last.Num+1:
		if r.hasPrev && (r.prev.Num != last.Num || r.prev.ID != last.ID) {
			return nil, false, errRelink
		}
		return nil, true, nil
	case n > last.Num+1:
		return nil, false, fmt.Errorf("%w: block %d follows %d", ErrGap, n, last.Num)
	}
	// A rewind: the blocks from n on are replaced. They must be above the
	// last irreversible block, and either held (to be undone) or below the
	// first block the stream delivered (all it holds is undone, and the
	// blocks below its start are passed over).
	first := t.held[0].Num
	if n <= lib || n < first && first != t.start {
		return nil, false, fmt.Errorf("%w: the node went back to block %d; the stream holds %d to %d (last irreversible %d): restore your state as of block %d or earlier and resume from there",
			ErrForkBelowReversible, n, first, last.Num, lib, n-1)
	}
	if n >= first && t.held[n-first].ID == r.this.ID {
		return nil, false, nil // a block delivered already, sent again: nothing changed at n
	}
	i := 0
	if n > first {
		i = int(n - first)
		if r.hasPrev && (r.prev.Num != t.held[i-1].Num || r.prev.ID != t.held[i-1].ID) {
			return nil, false, errRelink
		}
	}
	for j := len(t.held) - 1; j >= i; j-- {
		undo = append(undo, t.held[j])
	}
	if n < first {
		t.below = r.this
		return undo, false, nil
	}
	return undo, true, nil
}

// delivered records a block handed to the consumer (after any undo).
func (t *tracker) delivered(p Position, lib uint32) {
	if len(t.held) > 0 && p.Num <= t.held[len(t.held)-1].Num {
		t.held = t.held[:p.Num-t.held[0].Num]
	}
	t.held = append(t.held, p)
	if lib > t.lib {
		t.lib = lib
	}
	// Keep the blocks above the last irreversible one, and that one (the
	// next block links to it).
	k := 0
	for k < len(t.held)-1 && t.held[k].Num < t.lib {
		k++
	}
	if k > 0 {
		t.held = append(t.held[:0], t.held[k:]...)
	}
}

// cursor is the cursor after the blocks delivered so far.
func (t *tracker) cursor() Cursor { return Cursor{held: append([]Position(nil), t.held...)} }

// resume is where a request continues: after the last block, with the held
// positions as have_positions.
func (t *tracker) resume() (start uint32, have []Position) {
	if len(t.held) == 0 {
		return t.start, nil
	}
	return t.held[len(t.held)-1].Num + 1, t.held
}
