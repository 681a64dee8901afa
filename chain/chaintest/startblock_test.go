package chaintest_test

import (
	"fmt"
	"testing"

	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// A chain made WithStartBlock numbers its blocks from there: everything
// that looks a block up by number (state history, forks, finality,
// get_info, the state service, get_transaction_status) must find the
// block of that number, as on a chain that starts at 1.

// startBlocks are the chains' first blocks: the default, and a real
// chain's height.
var startBlocks = []uint32{1, 9_135_393}

func TestStartBlockFinalityAndStatus(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithManualFinality(), chaintest.WithoutNetwork())
			ctx := t.Context()
			if got := s.c.LastIrreversible().Num; got != first {
				t.Errorf("last irreversible %d, want the genesis block %d", got, first)
			}
			n := s.transfer(alice, bob, 1)
			s.transfer(alice, bob, 2)
			head := s.c.Head()
			info, err := s.cl.GetInfo(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if info.HeadBlockNum != head.Num || info.HeadBlockID != head.ID || info.LastIrreversibleBlockNum != first {
				t.Errorf("get_info: head %d, last irreversible %d; want %d, %d", info.HeadBlockNum, info.LastIrreversibleBlockNum, head.Num, first)
			}
			st, err := s.cl.GetTransactionStatus(ctx, s.sent[0].id)
			if err != nil || st.State != chain.TxInBlock || st.BlockNum != n || st.IrreversibleNum != first ||
				st.HeadNum != head.Num || st.EarliestTrackedNum != first {
				t.Errorf("status %+v, %v", st, err)
			}
			if err := s.c.SetLastIrreversible(first - 1); err == nil && first > 1 {
				t.Error("SetLastIrreversible below the first block: no error")
			}
			if err := s.c.SetLastIrreversible(head.Num + 1); err == nil {
				t.Error("SetLastIrreversible above the head: no error")
			}
			if err := s.c.SetLastIrreversible(n); err != nil {
				t.Fatal(err)
			}
			if got := s.c.LastIrreversible(); got.Num != n {
				t.Errorf("last irreversible %d, want %d", got.Num, n)
			}
			if info, err = s.cl.GetInfo(ctx); err != nil || info.LastIrreversibleBlockNum != n {
				t.Errorf("get_info: last irreversible %d, %v", info.LastIrreversibleBlockNum, err)
			}
			st, err = s.cl.GetTransactionStatus(ctx, s.sent[0].id)
			if err != nil || st.State != chain.TxIrreversible || st.BlockNum != n || st.IrreversibleNum != n {
				t.Errorf("status %+v, %v", st, err)
			}
			if st, err = s.cl.GetTransactionStatus(ctx, s.sent[1].id); err != nil || st.State != chain.TxInBlock || st.BlockNum != n+1 {
				t.Errorf("status of the second %+v, %v", st, err)
			}
			if err := s.c.Fork(n - 1); err == nil {
				t.Error("Fork below the last irreversible block: no error")
			}
		})
	}
}

// The state service reads the tables as of each block.
func TestStartBlockStateAt(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithoutNetwork())
			ctx := t.Context()
			bobHad := map[uint32]int64{}
			for i := range 4 {
				n := s.transfer(alice, bob, int64(i+1))
				bobHad[n] = balance(t, s.cl, bob)
			}
			for n, want := range bobHad {
				row, err := eosiotoken.TableAccounts.Get(ctx, s.c.State().At(n), bob, uint64(waxSym.Code))
				if err != nil || row.Balance.Amount != want {
					t.Errorf("bob at block %d: %v, %v; want %d", n, row.Balance, err, want)
				}
			}
		})
	}
}

// Rollback takes the chain back to block n's state.
func TestStartBlockRollback(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithManualFinality(), chaintest.WithoutNetwork())
			n := s.transfer(alice, bob, 5)
			atN := s.c.Head()
			s.transfer(alice, bob, 7)
			s.transfer(alice, bob, 9)
			if err := s.c.Rollback(n); err != nil {
				t.Fatal(err)
			}
			s.rolledBack(n)
			if got := s.c.Head(); got.ID != atN.ID {
				t.Errorf("head %d %v, want %d %v", got.Num, got.ID, atN.Num, atN.ID)
			}
			if got := balance(t, s.cl, bob); got != 5 {
				t.Errorf("bob has %d after the rollback, want 5", got)
			}
			if m := s.transfer(alice, bob, 3); m != n+1 {
				t.Errorf("the new branch's first block is %d, want %d", m, n+1)
			}
			if got := balance(t, s.cl, bob); got != 8 {
				t.Errorf("bob has %d, want 8", got)
			}
		})
	}
}

// State history from the first block, through forks, rollbacks and
// finality: the consumer ends with the chain's final branch.
func TestStartBlockSHiP(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithManualFinality(), chaintest.WithoutNetwork())
			s.upTo(first + 9)
			at := func(k uint32) uint32 { return first + k - 1 } // the chain's kth block
			l := newLedger(t)
			s.follow(l, ship.Request{Start: first}, at(30), map[uint32]func(){
				at(12): func() { s.fork(at(11)) },
				at(20): func() { s.rollback(at(18), 3) },
				at(25): func() { s.setLIB(at(22)) },
				at(28): func() { s.fork(at(26)) },
			})
			l.check(s, first)
			if l.branch.Undos < 2 {
				t.Errorf("%d undos", l.branch.Undos)
			}
			if got := l.branch.Blocks[0].Num; got != first {
				t.Errorf("first block streamed %d, want %d", got, first)
			}
		})
	}
}

// State history's status says where the chain's logs begin: a reader told
// that block 1 is missing asks it, and must learn the first block.
func TestStartBlockSHiPStatus(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithoutNetwork())
			st, err := s.c.SHiPClient().Status(s.ctx())
			if err != nil {
				t.Fatal(err)
			}
			head := s.c.Head().Num
			if st.TraceBegin != first || st.ChainStateBegin != first || st.TraceEnd != head+1 || st.Head.Num != head {
				t.Errorf("status %+v: want the logs from %d to %d", st, first, head+1)
			}
		})
	}
}
