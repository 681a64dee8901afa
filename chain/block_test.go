package chain_test

import (
	"testing"

	"github.com/antelopego/abigen/chain"
)

// TestGetBlockChaintest reads back, with GetBlock, the block chaintest
// executed a transfer in: one executed receipt, billed as the send was,
// carrying the signed transaction that was sent.
func TestGetBlockChaintest(t *testing.T) {
	p := newPayChain(t)
	if err := p.node.SetResources(alice, 1_000, 10_000); err != nil {
		t.Fatal(err)
	}
	res, err := p.c.Transact(t.Context(), p.alice, payTransfer(t, 1_0000, "read back"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.c.GetBlock(t.Context(), res.BlockNum)
	if err != nil {
		t.Fatal(err)
	}
	if b.BlockNum != res.BlockNum || b.Timestamp != res.BlockTime || len(b.Transactions) != 1 {
		t.Fatalf("block %+v for %+v", b, res)
	}
	r := b.Transactions[0]
	if r.Status != chain.ReceiptExecuted || r.ID != res.ID || r.CPUUsageUS != 100 || r.NetUsageWords == 0 || r.Packed == nil {
		t.Fatalf("receipt %+v", r)
	}
	st, err := r.Packed.Unpack()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := res.Transaction.Transaction.ID()
	got, _ := st.Transaction.ID()
	if got != want || len(st.Signatures) != len(res.Transaction.Signatures) || st.Signatures[0].String() != res.Transaction.Signatures[0].String() {
		t.Errorf("carried %+v, sent %+v", st, res.Transaction)
	}
	// The block before holds nothing; a block not made yet is an error.
	if prev, err := p.c.GetBlock(t.Context(), res.BlockNum-1); err != nil || prev.ID != b.Previous {
		t.Errorf("block %d: %+v, %v", res.BlockNum-1, prev, err)
	}
	if _, err := p.c.GetBlock(t.Context(), res.BlockNum+100); err == nil {
		t.Error("a block above the head was read")
	}
}
