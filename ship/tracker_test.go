package ship

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// v1Cursor is the binary form of the first cursor format.
func v1Cursor(nums ...uint32) []byte {
	b := append([]byte{1}, binary.AppendUvarint(nil, uint64(len(nums)))...)
	for _, n := range nums {
		b = binary.LittleEndian.AppendUint32(b, n)
		b = append(b, make([]byte, 32)...)
	}
	return b
}

func TestCursorNumbersDoNotWrap(t *testing.T) {
	var c Cursor
	err := c.UnmarshalBinary(v1Cursor(math.MaxUint32, 0))
	if err == nil || !strings.Contains(err.Error(), "consecutive") {
		t.Fatalf("%v", err)
	}
	c = Cursor{held: []Position{{Num: math.MaxUint32}, {Num: 0}}, start: 1}
	bin, _ := c.MarshalBinary()
	if err := c.UnmarshalBinary(bin); err == nil {
		t.Fatal("a wrapping cursor loads")
	}
}

func TestOldCursorLoads(t *testing.T) {
	var c Cursor
	if err := c.UnmarshalBinary(v1Cursor(7, 8, 9)); err != nil || c.Last().Num != 9 || len(c.Reversible()) != 3 || c.Start() != 0 {
		t.Fatalf("%+v %v", c, err)
	}
}

// deliver feeds the tracker blocks from..to of one branch, with the last
// irreversible block lib.
func deliver(t *testing.T, tr *tracker, from, to, lib uint32) {
	t.Helper()
	for n := from; n <= to; n++ {
		r := blocksResult{head: Position{Num: to}, lib: Position{Num: lib}, this: Position{Num: n, ID: [32]byte{byte(n), byte(n >> 8), byte(n >> 16)}},
			prev: Position{Num: n - 1, ID: [32]byte{byte(n - 1), byte((n - 1) >> 8), byte((n - 1) >> 16)}}, hasThis: true, hasPrev: true}
		undo, ok, err := tr.accept(&r)
		if err != nil || undo != nil || !ok {
			t.Fatalf("block %d: %v %v %v", n, undo, ok, err)
		}
		tr.delivered(r.this, r.lib.Num)
	}
}

// A last irreversible block that stalls for hours leaves a cursor that
// loads, whose size and cost to take stay bounded.
func TestCursorBoundedWhenLIBStalls(t *testing.T) {
	tr := &tracker{start: 1}
	deliver(t, tr, 1, 70_000, 1)
	c := tr.cursor()
	if len(c.held) > maxHeld {
		t.Errorf("%d positions held", len(c.held))
	}
	bin, _ := c.MarshalBinary()
	var back Cursor
	if err := back.UnmarshalBinary(bin); err != nil || back.Last() != c.Last() {
		t.Fatalf("the cursor the stream wrote does not load: %v", err)
	}
	text, _ := c.MarshalText()
	if err := back.UnmarshalText(text); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = tr.cursor() }); allocs != 0 {
		t.Errorf("taking a cursor allocates %v times", allocs)
	}
	// A cursor taken earlier is not changed by what the stream does next.
	before := tr.cursor()
	last := before.Last()
	tr.held = tr.held[:len(tr.held)-3]
	deliver(t, tr, last.Num-2, last.Num, 1)
	if before.Last() != last {
		t.Error("a cursor taken earlier changed")
	}
}

// result is a blocks result for block n of branch br, linking to block
// n-1 of branch prevBr.
func result(n uint32, br, prevBr byte, lib, head uint32) blocksResult {
	return blocksResult{head: Position{Num: head}, lib: Position{Num: lib}, hasThis: true, hasPrev: n > 1,
		this: Position{Num: n, ID: [32]byte{byte(n), br}}, prev: Position{Num: n - 1, ID: [32]byte{byte(n - 1), prevBr}}}
}

// A last irreversible block that came with a block the stream refused
// (it did not link) is on the node's new branch, not the stream's: the
// rewind that follows is a fork to undo, not one below a final block.
// (Found by the model-checked stream.)
func TestLIBOfARefusedBlockIsNotReported(t *testing.T) {
	tr := &tracker{start: 5}
	for n := uint32(5); n <= 9; n++ {
		r := result(n, 0, 0, 4, 9)
		if _, ok, err := tr.accept(&r); !ok || err != nil {
			t.Fatal(n, err)
		}
		tr.delivered(r.this, r.lib.Num)
	}
	r := result(10, 1, 1, 7, 10) // the node forked above 4 and made 7' final
	if _, _, err := tr.accept(&r); err != errRelink {
		t.Fatalf("%v", err)
	}
	r = result(5, 1, 0, 7, 10)
	undo, ok, err := tr.accept(&r)
	if err != nil || !ok || len(undo) != 5 {
		t.Fatalf("undo %v, deliver %v: %v", undo, ok, err)
	}
}

// A rewind to the oldest block a cursor holds, when that is not the start,
// cannot be checked to link (the block below is not held): it is refused,
// not undone and spliced.
func TestRewindToOldestHeldRefused(t *testing.T) {
	var c Cursor
	if err := c.UnmarshalBinary(v1Cursor(10, 11, 12)); err != nil {
		t.Fatal(err)
	}
	tr := resumeTracker(c, 0, false)
	r := result(10, 1, 1, 0, 12)
	r.this.ID[1] = 9 // another block 10
	if undo, ok, err := tr.accept(&r); !errors.Is(err, ErrForkBelowReversible) {
		t.Fatalf("undo %v, deliver %v: %v", undo, ok, err)
	}
}

// A node whose last irreversible block is below a block it sends that the
// stream already reported final (a lagging node behind a load balancer,
// perhaps on a branch that lost) is not believed about that block: the
// stream tries again. (Found by the model-checked stream.)
func TestLaggingNodeBelowReportedLIB(t *testing.T) {
	tr := &tracker{start: 1}
	r := result(1, 0, 0, 0, 20)
	tr.accept(&r)
	tr.delivered(r.this, 0)
	r = result(2, 0, 0, 21, 30) // a sound node: block 21 is final
	if _, ok, err := tr.accept(&r); !ok || err != nil {
		t.Fatal(err)
	}
	tr.delivered(r.this, r.lib.Num)
	r = result(3, 1, 0, 1, 22) // a lagging node, final only up to 1
	var behind *behindError
	if _, ok, err := tr.accept(&r); ok || !errors.As(err, &behind) {
		t.Fatalf("delivered %v: %v", ok, err)
	}
}

// After a fork undid everything delivered and the stream passed over
// blocks below its start, a new request names the last of them: a node
// whose branch changed there again (while the connection was down)
// rewinds to it, and the start links to what it sends. (Found by the
// model-checked stream: the link check failed forever.)
func TestResumeNamesThePassedOverBlock(t *testing.T) {
	tr := &tracker{start: 6}
	r := result(6, 0, 0, 1, 10)
	tr.accept(&r)
	tr.delivered(r.this, 1)
	r = result(5, 1, 1, 1, 10) // a fork above 4
	if undo, ok, err := tr.accept(&r); err != nil || ok || len(undo) != 1 {
		t.Fatalf("%v %v %v", undo, ok, err)
	}
	tr.undo(1)
	start, have := tr.resume()
	if start != 6 || len(have) != 1 || have[0] != r.this {
		t.Fatalf("resume at %d with %v", start, have)
	}
}

// A fork that replaces the start block on another parent reaches below
// the start, how far the node does not say: what blocks below it set is
// unknown (forget and unseen from the block below). On the same parent,
// it reaches no lower than the start. (Found by the model-checked stream.)
func TestForkReplacingTheStart(t *testing.T) {
	for _, sameParent := range []bool{true, false} {
		tr := &tracker{start: 5}
		for n := uint32(5); n <= 6; n++ {
			r := result(n, 0, 0, 0, 6)
			tr.accept(&r)
			tr.delivered(r.this, 0)
		}
		prevBr := byte(1)
		if sameParent {
			prevBr = 0
		}
		r := result(5, 1, prevBr, 0, 6)
		if undo, ok, err := tr.accept(&r); err != nil || !ok || len(undo) != 2 {
			t.Fatalf("%v %v %v", undo, ok, err)
		}
		want := [2]uint32{4, 4}
		if sameParent {
			want = [2]uint32{5, 0}
		}
		if got := [2]uint32{tr.forget, tr.unseen}; got != want {
			t.Errorf("same parent %v: forget, unseen %v, want %v", sameParent, got, want)
		}
	}
}

// A node that replaces the start block when the block below it was
// reported final is behind if it does not hold that block final, and
// contradicts it if it does, on another parent. (Found by the
// model-checked stream.)
func TestStartReplacedBelowReportedLIB(t *testing.T) {
	for _, nodeLIB := range []uint32{0, 1} {
		tr := &tracker{start: 2}
		for n := uint32(2); n <= 3; n++ {
			r := result(n, 0, 0, 1, 3)
			tr.accept(&r)
			tr.delivered(r.this, 1)
		}
		r := result(2, 1, 1, nodeLIB, 3) // block 2 on another block 1
		_, ok, err := tr.accept(&r)
		var behind *behindError
		if ok || nodeLIB == 0 && !errors.As(err, &behind) || nodeLIB == 1 && !errors.Is(err, ErrForkBelowReversible) {
			t.Errorf("node's last irreversible %d: delivered %v, %v", nodeLIB, ok, err)
		}
	}
}

// Resumed from the cursor of an Undo of everything delivered (nothing held
// to link to), a start block whose parent was reported final is taken only
// from a node that holds that parent final. (Found by the model-checked
// stream.)
func TestStartAfterFullUndoFromLaggingNode(t *testing.T) {
	tr := resumeTracker(Cursor{start: 4, lib: 3}, 0, false)
	r := result(4, 0, 0, 0, 5)
	var behind *behindError
	if _, ok, err := tr.accept(&r); ok || !errors.As(err, &behind) {
		t.Fatalf("delivered %v: %v", ok, err)
	}
	r = result(4, 0, 0, 3, 5)
	if _, ok, err := tr.accept(&r); !ok || err != nil {
		t.Fatalf("delivered %v: %v", ok, err)
	}
}

// A lagging node whose branch replaces a block the stream reported final,
// but which does not hold that block final itself, is behind (a dead
// branch it has not left yet), not a contradiction: the stream tries
// again instead of ending with ErrForkBelowReversible, which tells the
// consumer to restore its state. A node that holds the replaced block
// final does contradict it.
func TestLaggingNodeRewindBelowReportedLIB(t *testing.T) {
	for _, nodeLIB := range []uint32{4, 7} {
		tr := &tracker{start: 5}
		for n := uint32(5); n <= 9; n++ {
			r := result(n, 0, 0, 7, 9)
			if _, ok, err := tr.accept(&r); !ok || err != nil {
				t.Fatal(n, err)
			}
			tr.delivered(r.this, r.lib.Num)
		}
		r := result(7, 1, 0, nodeLIB, 8) // another block 7, on block 6
		undo, ok, err := tr.accept(&r)
		var behind *behindError
		if ok || undo != nil || nodeLIB == 4 && !errors.As(err, &behind) || nodeLIB == 7 && !errors.Is(err, ErrForkBelowReversible) {
			t.Errorf("node's last irreversible %d: undo %v, delivered %v, %v", nodeLIB, undo, ok, err)
		}
	}
}
