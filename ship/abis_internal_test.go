package ship

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

var (
	tokenAcct = antelope.MustName("eosio.token")
	xferName  = antelope.MustName("transfer")
)

func setabiAction(account antelope.Name, abi string) shiptest.Action {
	head, _ := account.AppendBinary(nil)
	data := antelope.AppendVarUint32(head, uint32(len(abi)))
	return shiptest.Action{Contract: eosio, Name: setabi, Data: append(data, abi...)}
}

// blockOf makes the Block of a shiptest block, as the stream does.
func blockOf(t testing.TB, b shiptest.Block, abis *abiHistory) *Block {
	t.Helper()
	p, err := negotiate(protocol.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	r := blocksResult{this: Position{b.Num, b.ID}, hasThis: true, traces: b.Traces, hasTraces: true, deltas: b.Deltas, hasDeltas: true}
	return newBlock(p, &r, new([]ActionTrace), abis)
}

// Asking each action of a dense block for its ABI costs a lookup, not a
// walk of the block: after the block's first question, no allocation and
// no walk.
func TestActionABIIsNotQuadratic(t *testing.T) {
	var acts []shiptest.Action
	for i := range 1500 {
		acts = append(acts, shiptest.Action{Contract: tokenAcct, Name: xferName, Data: []byte{byte(i)}})
	}
	acts = append(acts[:700], append([]shiptest.Action{setabiAction(tokenAcct, "v2")}, acts[700:]...)...)
	chain := shiptest.NewChain()
	blk := chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{{Actions: acts}}})
	b := blockOf(t, blk, newABIHistory(map[antelope.Name][]byte{tokenAcct: []byte("v1")}))
	var last *ActionTrace
	n := 0
	for a, err := range b.Actions(OfContract(tokenAcct)) {
		if err != nil {
			t.Fatal(err)
		}
		abi, _ := a.ABI()
		if want := map[bool]string{true: "v1", false: "v2"}[n < 700]; string(abi) != want {
			t.Fatalf("action %d: ABI %q, want %q", n, abi, want)
		}
		n++
		c := *a
		last = &c
	}
	if allocs := testing.AllocsPerRun(20, func() { last.ABI() }); allocs != 0 {
		t.Errorf("ActionTrace.ABI allocates %v times a call: it walks the block", allocs)
	}
}

// The ABI history keeps, per account, the version in force at the last
// irreversible block and those set above it: nothing an undo cannot reach.
func TestABIHistoryPrunedAtLIB(t *testing.T) {
	h := newABIHistory(map[antelope.Name][]byte{tokenAcct: []byte("v0")})
	h.dateGiven(0)
	for n := uint32(1); n <= 1500; n++ {
		h.set(tokenAcct, n, []byte(fmt.Sprint("v", n)))
		h.prune(n - 3)
	}
	if got := len(h.versions[tokenAcct]); got > 4 {
		t.Errorf("%d versions kept with 3 reversible blocks", got)
	}
	for n, want := range map[uint64]string{1498: "v1497", 1501: "v1500"} {
		if abi, _ := h.at(tokenAcct, n); string(abi) != want {
			t.Errorf("at %d: %q, want %q", n, abi, want)
		}
	}
	h.undo(1499)
	if abi, _ := h.at(tokenAcct, 1501); string(abi) != "v1498" {
		t.Errorf("after undo: %q", abi)
	}
}

// ABIs the application supplies describe the state the stream starts
// from: an undo that reaches below it cannot tell what they were before,
// so they become unknown instead of being reported for the new branch.
func TestGivenABIsUndone(t *testing.T) {
	h := newABIHistory(map[antelope.Name][]byte{tokenAcct: []byte("v2")})
	h.dateGiven(10) // resumed after block 10, which (the application knows) set v2
	if abi, ok := h.at(tokenAcct, 11); !ok || !bytes.Equal(abi, []byte("v2")) {
		t.Fatalf("%q %v", abi, ok)
	}
	h.undo(11)
	if abi, ok := h.at(tokenAcct, 11); !ok || string(abi) != "v2" {
		t.Fatalf("an undo above the start dropped the given ABI: %q %v", abi, ok)
	}
	h.undo(10)
	if abi, ok := h.at(tokenAcct, 11); ok {
		t.Fatalf("after an undo of block 10, the given ABI %q is still in force", abi)
	}
}

// Blocks the stream did not see (passed over below the start, with a
// connection dropped among them) may have changed any ABI: one set before
// them is unknown after them, until set again. (Found by the model-checked
// stream.)
func TestABIUnknownAfterUnseenBlocks(t *testing.T) {
	h := newABIHistory(nil)
	h.dateGiven(0)
	h.set(tokenAcct, 2, []byte("v2"))
	h.gap(4)
	if abi, ok := h.at(tokenAcct, 5); ok {
		t.Fatalf("after an unseen block 4: %q", abi)
	}
	if abi, ok := h.at(tokenAcct, 4); !ok || string(abi) != "v2" {
		t.Fatalf("before it: %q %v", abi, ok)
	}
	h.set(tokenAcct, 5, []byte("v3"))
	if abi, ok := h.at(tokenAcct, 6); !ok || string(abi) != "v3" {
		t.Fatalf("set again: %q %v", abi, ok)
	}
	// The node sends blocks from 3 on again; those below may still be
	// unseen.
	h.undo(3)
	if abi, ok := h.at(tokenAcct, 5); ok {
		t.Fatalf("after an undo of the gap: %q", abi)
	}
	h.set(tokenAcct, 3, []byte("v4"))
	if abi, ok := h.at(tokenAcct, 5); !ok || string(abi) != "v4" {
		t.Fatalf("set again: %q %v", abi, ok)
	}
}
