package ship

import (
	"errors"
	"testing"
)

// At the bound of 16,384 positions (the last irreversible block stalled),
// a fork one above the oldest position kept is undone (the new block links
// to it); a fork at the oldest, whose parent is no longer held, is refused
// without undoing anything, as is one below it — and a stalled last
// irreversible block that then jumps past the last block leaves one
// position, which the next block links to.
func TestForkAtTheOldestKeptPosition(t *testing.T) {
	const last = maxHeld + 100
	tr := &tracker{start: 1}
	deliver(t, tr, 1, last, 1)
	first := tr.held[0].Num
	if first != last-maxHeld+1 || first == tr.start {
		t.Fatalf("holds %d to %d", first, last)
	}
	id := func(n uint32) [32]byte { return [32]byte{byte(n), byte(n >> 8), byte(n >> 16)} }
	for _, n := range []uint32{first - 1, first} {
		r := blocksResult{head: Position{Num: last}, lib: Position{Num: 1}, hasThis: true, hasPrev: true,
			this: Position{Num: n, ID: [32]byte{0xff}}, prev: Position{Num: n - 1, ID: id(n - 1)}}
		if undo, ok, err := tr.accept(&r); undo != nil || ok || !errors.Is(err, ErrForkBelowReversible) {
			t.Errorf("fork at %d (oldest held %d): undo %d blocks, delivered %v, %v", n, first, len(undo), ok, err)
		}
	}
	r := blocksResult{head: Position{Num: last}, lib: Position{Num: 1}, hasThis: true, hasPrev: true,
		this: Position{Num: first + 1, ID: [32]byte{0xff}}, prev: Position{Num: first, ID: id(first)}}
	undo, ok, err := tr.accept(&r)
	if err != nil || !ok || len(undo) != maxHeld-1 || undo[len(undo)-1].Num != first+1 {
		t.Fatalf("fork above %d: undo %d blocks, delivered %v, %v", first, len(undo), ok, err)
	}
	tr.undo(len(undo))
	tr.delivered(r.this, 1)
	// The last irreversible block jumps far past the last block.
	n := first + 2
	r = blocksResult{head: Position{Num: 5_000_000}, lib: Position{Num: 4_000_000}, hasThis: true, hasPrev: true,
		this: Position{Num: n, ID: id(n)}, prev: r.this}
	if _, ok, err := tr.accept(&r); !ok || err != nil {
		t.Fatalf("%v %v", ok, err)
	}
	tr.delivered(r.this, r.lib.Num)
	if c := tr.cursor(); len(c.held) != 1 || c.Last() != r.this || c.lib != 4_000_000 || tr.settled() != 4_000_000 {
		t.Errorf("cursor holds %d positions, last %v, last irreversible %d", len(c.held), c.Last(), c.lib)
	}
}
