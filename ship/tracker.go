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
	start uint32     // the first block expected when nothing is held
	lib   uint32     // the node's last irreversible block, as last reported
}

// accept checks the next block. It returns the blocks a fork undoes
// (newest first), or an error.
func (t *tracker) accept(r *blocksResult) (undo []Position, err error) {
	if !r.hasThis {
		next := t.start
		if len(t.held) > 0 {
			next = t.held[len(t.held)-1].Num + 1
		}
		return nil, fmt.Errorf("%w %d (this_block is null): it may have started from a snapshot or pruned its state-history log; ask Client.Status for the blocks it serves and start within them", ErrNoBlock, next)
	}
	n := r.this.Num
	if len(t.held) == 0 {
		if t.start != 0 && n != t.start {
			return nil, fmt.Errorf("%w: asked to start at %d, got %d first", ErrGap, t.start, n)
		}
		return nil, nil
	}
	last := t.held[len(t.held)-1]
	switch {
	case n == last.Num+1:
		if r.hasPrev && (r.prev.Num != last.Num || r.prev.ID != last.ID) {
			return nil, errRelink
		}
		return nil, nil
	case n > last.Num+1:
		return nil, fmt.Errorf("%w: block %d follows %d", ErrGap, n, last.Num)
	}
	// A rewind: the blocks from n on are replaced. They must all be held
	// (to be undone) and above the last irreversible block.
	if n < t.held[0].Num || n <= t.lib {
		return nil, fmt.Errorf("%w: the node went back to block %d; the stream holds %d to %d (last irreversible %d): restore your state as of block %d or earlier and resume from there",
			ErrForkBelowReversible, n, t.held[0].Num, last.Num, t.lib, n-1)
	}
	i := int(n - t.held[0].Num)
	if i > 0 && r.hasPrev && (r.prev.Num != t.held[i-1].Num || r.prev.ID != t.held[i-1].ID) {
		return nil, errRelink
	}
	for j := len(t.held) - 1; j >= i; j-- {
		undo = append(undo, t.held[j])
	}
	return undo, nil
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
