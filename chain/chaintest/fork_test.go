package chaintest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Finality under the test's control, and the two forks.

func TestInstantFinalityByDefault(t *testing.T) {
	c, _ := tokenChain(t)
	head := c.Head()
	if lib := c.LastIrreversible(); lib.ID != head.ID {
		t.Errorf("last irreversible %d, head %d", lib.Num, head.Num)
	}
	for what, err := range map[string]error{"SetLastIrreversible": c.SetLastIrreversible(head.Num),
		"Fork": c.Fork(head.Num - 1), "Rollback": c.Rollback(head.Num - 1)} {
		if err == nil || !strings.Contains(err.Error(), "WithManualFinality") {
			t.Errorf("%s: %v", what, err)
		}
	}
}

func TestManualFinality(t *testing.T) {
	s := newShipTester(t, "go", chaintest.WithManualFinality())
	ctx := context.Background()
	n := s.transfer(alice, bob, 1)
	info, err := s.cl.GetInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.LastIrreversibleBlockNum != 1 || info.HeadBlockNum != n {
		t.Errorf("get_info: head %d, last irreversible %d", info.HeadBlockNum, info.LastIrreversibleBlockNum)
	}
	st, err := s.cl.GetTransactionStatus(ctx, s.sent[0].id)
	if err != nil || st.State != chain.TxInBlock || st.IrreversibleNum != 1 {
		t.Errorf("status %+v, %v", st, err)
	}
	if err := s.c.SetLastIrreversible(n); err != nil {
		t.Fatal(err)
	}
	st, err = s.cl.GetTransactionStatus(ctx, s.sent[0].id)
	if err != nil || st.State != chain.TxIrreversible {
		t.Errorf("status %+v, %v", st, err)
	}
	if s.c.LastIrreversible().Num != n {
		t.Errorf("last irreversible %d", s.c.LastIrreversible().Num)
	}
	for what, err := range map[string]error{
		"lower":         s.c.SetLastIrreversible(n - 1),
		"above head":    s.c.SetLastIrreversible(n + 1),
		"fork below":    s.c.Fork(n - 1),
		"rollback head": s.c.Rollback(n),
	} {
		if err == nil {
			t.Errorf("%s: no error", what)
		}
	}
	// Finality does not stop the chain: transactions refer to the last
	// irreversible block, which stays on every branch.
	s.upTo(n + 5)
	if err := s.c.Fork(n); err != nil {
		t.Fatal(err)
	}
}

// Fork keeps what the blocks did and changes their ids; a transaction
// that refers to a replaced block is refused, as on the node's new branch.
func TestForkNewIDsSameState(t *testing.T) {
	s := newShipTester(t, "go", chaintest.WithManualFinality())
	s.upTo(12)
	before := blockIDs(t, s.c, 1, 12)
	stale, _ := s.c.BlockSource().Block(11)
	if err := s.c.Fork(9); err != nil {
		t.Fatal(err)
	}
	after := blockIDs(t, s.c, 1, 12)
	for n := uint32(1); n <= 12; n++ {
		if changed := before[n] != after[n]; changed != (n > 9) {
			t.Errorf("block %d: id changed %v", n, changed)
		}
		b, _ := s.c.BlockSource().Block(n)
		if n > 1 && b.Previous != after[n-1] {
			t.Errorf("block %d does not link to block %d", n, n-1)
		}
	}
	if got := s.c.Head(); got.ID != after[12] || len(got.Transactions) != 1 || got.Transactions[0] != s.sent[len(s.sent)-1].id {
		t.Errorf("head %+v", got)
	}
	ctx := context.Background()
	if st, err := s.cl.GetTransactionStatus(ctx, s.sent[len(s.sent)-1].id); err != nil || st.BlockNum != 12 || st.BlockID != after[12] {
		t.Errorf("status %+v, %v", st, err)
	}
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1), Memo: "stale"}, antelope.Active(alice))
	tx, _, err := s.cl.BuildTransaction(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	tx.SetReferenceBlock(stale.ID)
	signed, err := s.cl.Sign(ctx, s.keys[alice], s.c.ChainID(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.cl.SendTransaction(ctx, signed); !errors.Is(err, chain.ErrBadTAPoS) {
		t.Errorf("a transaction referring to a replaced block: %v", err)
	}
}

// Rollback takes the chain back to the end of block n: tables, accounts,
// contracts and their ABIs, the transactions it knows; the new branch's
// blocks have new ids.
func TestRollbackRestoresTheState(t *testing.T) {
	s := newShipTester(t, "go", chaintest.WithManualFinality())
	ctx := context.Background()
	s.c.NewAccount(kv)
	s.c.Produce() // a helper's change is in the state of the next block
	n := s.c.Head().Num
	oldNext := s.c.Head()
	s.transfer(alice, bob, 7_00000000)
	carol := antelope.MustName("carol")
	s.c.NewAccount(carol)
	if err := s.c.SetContract(kv, []byte(kvABI), kvContract); err != nil {
		t.Fatal(err)
	}
	dropped := s.sent[len(s.sent)-1]
	oldBlock, _ := s.c.BlockSource().Block(n + 1)
	if err := s.c.Rollback(n); err != nil {
		t.Fatal(err)
	}
	s.rolledBack(n)
	if s.c.Head().ID != oldNext.ID {
		t.Errorf("head %d", s.c.Head().Num)
	}
	if _, err := s.cl.GetAccount(ctx, carol); err == nil {
		t.Error("carol is still there")
	}
	if abi, err := s.cl.GetABI(ctx, kv); err != nil || len(abi) != 0 {
		t.Errorf("kv's ABI: %s, %v", abi, err)
	}
	if got := balance(t, s.cl, bob); got != 0 {
		t.Errorf("bob has %d", got)
	}
	if st, err := s.cl.GetTransactionStatus(ctx, dropped.id); err != nil || st.State != chain.TxUnknown {
		t.Errorf("the dropped transfer: %+v, %v", st, err)
	}
	// The state service forgets the dropped blocks too.
	if _, err := eosiotoken.TableAccounts.Get(ctx, s.c.State().At(n+1), bob, uint64(waxSym.Code)); err == nil {
		t.Error("the state service serves a dropped block")
	}
	// The new branch: the same transfer again, in a block with another id.
	s.transfer(alice, bob, 7_00000000)
	if got := balance(t, s.cl, bob); got != 7_00000000 {
		t.Errorf("bob has %d", got)
	}
	if b, _ := s.c.BlockSource().Block(n + 1); b.ID == oldBlock.ID {
		t.Error("the new branch's block has the old id")
	}
	// Rolling back to the same block twice restores the same state.
	if err := s.c.Rollback(n); err != nil {
		t.Fatal(err)
	}
	if got := balance(t, s.cl, bob); got != 0 {
		t.Errorf("bob has %d", got)
	}
}

func blockIDs(t *testing.T, c *chaintest.Chain, from, to uint32) map[uint32]antelope.Checksum256 {
	t.Helper()
	out := map[uint32]antelope.Checksum256{}
	for n := from; n <= to; n++ {
		b, ok := c.BlockSource().Block(n)
		if !ok {
			t.Fatalf("no block %d", n)
		}
		out[n] = b.ID
	}
	return out
}
