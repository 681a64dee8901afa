package ship_test

import (
	"bytes"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// The ABI in force at each block follows account deltas, and a fork takes
// back the ABI its undone blocks set.
func TestABIInForce(t *testing.T) {
	v1, v2, v3 := []byte("abi-v1"), []byte("abi-v2"), []byte("abi-v3")
	chain := shiptest.NewChain()
	chain.ProduceEmpty(2)
	chain.Produce(shiptest.BlockData{ABIs: []shiptest.ABIChange{{Account: token, ABI: v2}}}) // block 3
	chain.ProduceEmpty(3)                                                                    // 4–6
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	want := map[uint32][]byte{1: v1, 2: v1, 3: v1, 4: v2, 5: v2, 6: v2}
	forked := false
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 9, ABIs: map[antelope.Name][]byte{token: v1}}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo != nil {
			continue
		}
		b := ev.Block
		got, ok := b.ABI(token)
		if !ok || !bytes.Equal(got, want[b.Num]) {
			t.Errorf("block %d (forked %v): ABI %q, want %q", b.Num, forked, got, want[b.Num])
		}
		if b.Num == 6 && !forked {
			forked = true
			// Replace 3–6: the ABI change moves to block 4, and v3 comes at 7.
			chain.ForkWith(2, shiptest.BlockData{}, shiptest.BlockData{ABIs: []shiptest.ABIChange{{Account: token, ABI: v2}}},
				shiptest.BlockData{}, shiptest.BlockData{}, shiptest.BlockData{ABIs: []shiptest.ABIChange{{Account: token, ABI: v3}}}, shiptest.BlockData{})
			want = map[uint32][]byte{3: v1, 4: v1, 5: v2, 6: v2, 7: v2, 8: v3}
		}
	}
	if !forked {
		t.Fatal("no fork")
	}
}

// Rows decode with the ABI in force at the block's end: a block that
// upgrades its contract (setcode, setabi, migrate) writes rows of the new
// ABI.
func TestRowABIIsTheBlockEnd(t *testing.T) {
	v1, v2 := []byte("abi-v1"), []byte("abi-v2")
	chain := shiptest.NewChain()
	chain.Produce(shiptest.BlockData{ABIs: []shiptest.ABIChange{{Account: token, ABI: v2}},
		Rows: []shiptest.Row{{Code: token, Scope: bob, Table: accts, PrimaryKey: 1, Payer: bob, Value: []byte{1, 2, 3}}}})
	chain.Produce(shiptest.BlockData{Rows: []shiptest.Row{{Code: token, Scope: bob, Table: accts, PrimaryKey: 1, Payer: bob, Value: []byte{4}}}})
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var got []string
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 3, ABIs: map[antelope.Name][]byte{token: v1}}) {
		if err != nil {
			t.Fatal(err)
		}
		start, _ := ev.Block.ABI(token)
		for r, err := range ev.Block.Rows() {
			if err != nil {
				t.Fatal(err)
			}
			abi, ok := r.ABI()
			if !ok {
				t.Fatal("no ABI")
			}
			got = append(got, string(start)+">"+string(abi))
		}
	}
	if len(got) != 2 || got[0] != "abi-v1>abi-v2" || got[1] != "abi-v2>abi-v2" {
		t.Errorf("%q", got)
	}
}
