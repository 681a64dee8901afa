package chaintest_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/internal/shipcheck"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// package ship's fork scenarios, against the chain's own blocks: real
// transfers by the Go eosio.token and the real eosio.token.wasm, forks
// that replace them (Fork: the same transfers in blocks with new ids;
// Rollback: other transfers), and a consumer that credits what the typed
// Actions and Rows give it, undoing what an Undo takes back. At the end it
// must hold exactly the transfers and balances of the chain's final
// branch.

// ledger is an indexer: the transfers of each block and the balances the
// accounts rows give, with what each block changed, to undo a fork.
type ledger struct {
	branch    shipcheck.Branch
	transfers map[uint32][]sent
	balances  map[antelope.Name]antelope.Asset
	journal   map[uint32][]balanceChange
}

// balanceChange is a balance as it was before a block changed it.
type balanceChange struct {
	owner antelope.Name
	was   antelope.Asset
	had   bool
}

func newLedger(t *testing.T) *ledger {
	return &ledger{branch: shipcheck.Branch{T: t}, transfers: map[uint32][]sent{},
		balances: map[antelope.Name]antelope.Asset{}, journal: map[uint32][]balanceChange{}}
}

func (l *ledger) event(ev ship.Event) {
	t := l.branch.T
	t.Helper()
	l.branch.Event(ev)
	if ev.Undo != nil {
		l.undo(ev.Undo)
		return
	}
	b := ev.Block
	for a, err := range ship.Actions(b, eosiotoken.Actions.Transfer) {
		if err != nil {
			t.Fatal(err)
		}
		l.transfers[b.Num] = append(l.transfers[b.Num], sent{block: b.Num, id: a.Trace.TransactionID, data: a.Data})
	}
	for r, err := range ship.Rows(b, eosiotoken.TableAccounts) {
		if err != nil {
			t.Fatal(err)
		}
		l.row(r)
	}
}

// undo takes back what the blocks credited, newest first.
func (l *ledger) undo(u *ship.Undo) {
	for _, p := range u.Blocks {
		delete(l.transfers, p.Num)
		j := l.journal[p.Num]
		for i := len(j) - 1; i >= 0; i-- {
			if j[i].had {
				l.balances[j[i].owner] = j[i].was
			} else {
				delete(l.balances, j[i].owner)
			}
		}
		delete(l.journal, p.Num)
	}
}

// row applies a balance row's change.
func (l *ledger) row(r ship.RowEvent[eosiotoken.Account]) {
	b, owner := r.Change.Block, r.Change.Scope
	was, had := l.balances[owner]
	l.journal[b.Num] = append(l.journal[b.Num], balanceChange{owner, was, had})
	if r.New != nil {
		l.balances[owner] = r.New.Balance
	} else {
		delete(l.balances, owner)
	}
}

// check compares the ledger with the chain: the transfers of the blocks
// from first on, and every balance.
func (l *ledger) check(s *shipTester, first uint32) {
	t := l.branch.T
	t.Helper()
	l.checkTransfers(s, first, s.c.Head().Num)
	for _, owner := range []antelope.Name{alice, bob} {
		row, err := eosiotoken.TableAccounts.Get(t.Context(), s.cl, owner, uint64(waxSym.Code))
		if err != nil {
			t.Fatal(err)
		}
		if l.balances[owner] != row.Balance {
			t.Errorf("%s: credited %v, the chain has %v", owner, l.balances[owner], row.Balance)
		}
	}
}

// next produces a block: a transfer from alice to bob, or back.
func (s *shipTester) next() {
	s.t.Helper()
	if len(s.sent)%3 == 2 {
		s.transfer(bob, alice, 1_00000000)
	} else {
		s.transfer(alice, bob, int64(len(s.sent)+1)*1_00000000)
	}
}

// upTo produces blocks up to n.
func (s *shipTester) upTo(n uint32) {
	for s.c.Head().Num < n {
		s.next()
	}
}

func (s *shipTester) fork(n uint32) {
	s.t.Helper()
	if err := s.c.Fork(n); err != nil {
		s.t.Fatal(err)
	}
}

// rollback drops the blocks above n, and makes a new branch of k blocks.
func (s *shipTester) rollback(n uint32, k int) {
	s.t.Helper()
	if err := s.c.Rollback(n); err != nil {
		s.t.Fatal(err)
	}
	s.rolledBack(n)
	for range k {
		s.next()
	}
}

func (s *shipTester) setLIB(n uint32) {
	s.t.Helper()
	if err := s.c.SetLastIrreversible(n); err != nil {
		s.t.Fatal(err)
	}
}

// follow streams into l from req, calling script[n] the first time block
// n is delivered and producing a block whenever the stream reaches the
// head, until block end is delivered on the chain's final branch.
func (s *shipTester) follow(l *ledger, req ship.Request, end uint32, script map[uint32]func(), opts ...ship.Option) {
	s.t.Helper()
	done := map[uint32]bool{}
	opts = append([]ship.Option{ship.WithStallTimeout(5 * time.Second), ship.WithMaxReconnects(50)}, opts...)
	for ev, err := range s.c.SHiPClient(opts...).Stream(s.ctx(), req) {
		if err != nil {
			s.t.Fatal(err)
		}
		l.event(ev)
		if ev.Block == nil {
			continue
		}
		n := ev.Block.Num
		if f := script[n]; f != nil && !done[n] {
			done[n] = true
			f()
		}
		if head := s.c.Head().Num; n >= head && head < end {
			s.next()
		}
		if final, ok := s.c.BlockSource().Block(end); ok && n == end && final.ID == ev.Block.ID {
			break
		}
	}
}

func TestSHiPMicroForks(t *testing.T) {
	for _, impl := range tokenImpls {
		for _, window := range []uint32{1, 4, 32} {
			s := newShipTester(t, impl, chaintest.WithManualFinality(), chaintest.WithoutNetwork())
			s.upTo(10)
			l := newLedger(t)
			s.follow(l, ship.Request{Start: 1}, 40, map[uint32]func(){
				12: func() { s.fork(11) },               // 1 block (or 2: the next may be there), the same transfers
				20: func() { s.rollback(18, 3) },        // 2 blocks, other transfers
				25: func() { s.setLIB(22) },             // finality moves on
				30: func() { s.fork(27) },               // 3 blocks
				33: func() { s.rollback(30, 1) },        // 3 blocks replaced by 1: the new branch is shorter
				36: func() { s.setLIB(s.c.Head().Num) }, // and catches up with the head
			}, ship.WithWindow(window))
			l.check(s, 1)
			if l.branch.Undos < 4 {
				t.Errorf("%s, window %d: %d undos", impl, window, l.branch.Undos)
			}
		}
	}
}

func TestSHiPJumpBack(t *testing.T) {
	for _, impl := range tokenImpls {
		s := newShipTester(t, impl, chaintest.WithManualFinality())
		s.upTo(35)
		l := newLedger(t)
		s.follow(l, ship.Request{Start: 1}, 45, map[uint32]func(){
			35: func() { s.rollback(19, 20) }, // 35 → 20: a longer branch from 20 on
		})
		l.check(s, 1)
		if l.branch.Undone != 16 {
			t.Errorf("%s: %d blocks undone", impl, l.branch.Undone)
		}
	}
}

// The stream started at 30; a fork at 25 replaces blocks it never
// delivered: it undoes all it holds, passes over 26–29, and goes on at 30
// on the new branch.
func TestSHiPForkBelowFirstBlock(t *testing.T) {
	for _, impl := range tokenImpls {
		s := newShipTester(t, impl, chaintest.WithManualFinality())
		s.upTo(35)
		s.setLIB(10)
		l := newLedger(t)
		s.follow(l, ship.Request{Start: 30}, 45, map[uint32]func(){
			35: func() { s.rollback(25, 12) },
		})
		if l.branch.Undos == 0 || l.branch.Blocks[0].Num != 30 {
			t.Errorf("%s: undos %d, first %v", impl, l.branch.Undos, l.branch.Blocks[0])
		}
		// The ledger saw the rows of the blocks from 30 on only: compare the
		// transfers.
		l.checkTransfers(s, 30, s.c.Head().Num)
	}
}

// checkTransfers compares the transfers of blocks first to last with the
// chain's.
func (l *ledger) checkTransfers(s *shipTester, first, last uint32) {
	t := l.branch.T
	t.Helper()
	l.branch.Matches(func(n uint32) (antelope.Checksum256, bool) {
		b, ok := s.c.BlockSource().Block(n)
		return b.ID, ok
	})
	var got, want []sent
	for n := range l.transfers {
		got = append(got, l.transfers[n]...)
	}
	slices.SortFunc(got, func(a, b sent) int { return int(a.block) - int(b.block) })
	for _, x := range s.sent {
		if x.block >= first && x.block <= last {
			want = append(want, x)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("transfers credited:\n%v\nthe chain's:\n%v", got, want)
	}
}

// A fork that happens while the consumer is away is undone when it resumes
// with its cursor (have_positions), on either transport.
func TestSHiPForkWhileDisconnected(t *testing.T) {
	for _, opts := range [][]chaintest.Option{{chaintest.WithManualFinality()}, {chaintest.WithManualFinality(), chaintest.WithoutNetwork()}} {
		s := newShipTester(t, "wasm", opts...)
		s.upTo(30)
		s.setLIB(20)
		l := newLedger(t)
		var cursor ship.Cursor
		for ev, err := range s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: 1, End: 31}) {
			if err != nil {
				t.Fatal(err)
			}
			l.event(ev)
			cursor = ev.Cursor()
		}
		if got := cursor.Last().Num; got != 30 || len(cursor.Reversible()) != 11 {
			t.Fatalf("cursor at %d holding %d", got, len(cursor.Reversible()))
		}
		text, _ := cursor.MarshalText()
		s.rollback(25, 10) // 26–35 replaced while away

		var resumed ship.Cursor
		if err := resumed.UnmarshalText(text); err != nil {
			t.Fatal(err)
		}
		for ev, err := range s.c.SHiPClient().Stream(s.ctx(), ship.Request{Cursor: resumed, End: 36}) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Undo != nil && ev.Undo.Blocks[len(ev.Undo.Blocks)-1].Num != 26 {
				t.Errorf("undo %v", ev.Undo.Blocks)
			}
			l.event(ev)
		}
		l.check(s, 1)
		if l.branch.Undone != 5 || l.branch.Last().Num != 35 {
			t.Errorf("undone %d, last %v", l.branch.Undone, l.branch.Last())
		}
		reqs := s.c.SHiP().Requests()
		if last := reqs[len(reqs)-1]; last.StartBlockNum != 31 || len(last.HavePositions) != 11 {
			t.Errorf("resume request: start %d, %d positions", last.StartBlockNum, len(last.HavePositions))
		}
	}
}

// The endpoint's faults, through the chain: connections dropped in the
// middle of a message and a stall; the stream reconnects from its cursor
// and the ledger still ends as the chain.
func TestSHiPFaults(t *testing.T) {
	for _, opts := range [][]chaintest.Option{{chaintest.WithManualFinality()}, {chaintest.WithManualFinality(), chaintest.WithoutNetwork()}} {
		s := newShipTester(t, "go", opts...)
		s.upTo(20)
		srv := s.c.SHiP()
		l := newLedger(t)
		s.follow(l, ship.Request{Start: 1}, 40, map[uint32]func(){
			5:  func() { srv.DropMidMessage(3) },
			15: func() { s.fork(12) },
			22: func() {
				srv.Stall(true)
				go func() { time.Sleep(300 * time.Millisecond); srv.Stall(false) }()
			},
			30: func() { srv.DropConnections() },
		}, ship.WithStallTimeout(100*time.Millisecond), ship.WithWindow(4))
		l.check(s, 1)
		if srv.Connections() < 5 || srv.MaxInFlight() > 4 {
			t.Errorf("%d connections, %d in flight at most", srv.Connections(), srv.MaxInFlight())
		}
	}
}

// The typed sequences over a whole stream, through forks: ship.Actions
// yields the transfers and an Undo before the new branch's, ship.Rows the
// balance rows likewise.
func TestSHiPTypedStreams(t *testing.T) {
	for _, impl := range tokenImpls {
		s := newShipTester(t, impl, chaintest.WithManualFinality())
		first := s.c.Head().Num + 1
		s.upTo(31) // the forks below replace blocks up to 31 by as many
		final := func(p ship.Position) bool {
			b, ok := s.c.BlockSource().Block(p.Num)
			return ok && b.ID == p.ID && p.Num == s.c.Head().Num
		}

		l := newLedger(t)
		forked := false
		for ev, err := range ship.Actions(s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: first}), eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Undo != nil {
				l.undo(ev.Undo)
				continue
			}
			b := ev.Trace.Block
			if b.Num > 30 {
				if final(b.Position) {
					break // blocks up to 30 are all in, on the final branch
				}
				continue
			}
			l.transfers[b.Num] = append(l.transfers[b.Num], sent{block: b.Num, id: ev.Trace.TransactionID, data: ev.Data})
			if b.Num == 25 && !forked {
				forked = true
				s.rollback(20, 11) // 21–31 replaced by other transfers
			}
		}
		l.checkTransfers(s, first, 30)

		forked = false
		for ev, err := range ship.Rows(s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: 1}), eosiotoken.TableAccounts) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Undo != nil {
				l.undo(ev.Undo)
				continue
			}
			b := ev.Change.Block
			if b.Num > 30 {
				if final(b.Position) {
					break
				}
				continue
			}
			l.row(ev)
			if b.Num == 27 && !forked {
				forked = true
				s.rollback(24, 7)
			}
		}
		for _, owner := range []antelope.Name{alice, bob} {
			row, err := eosiotoken.TableAccounts.Get(t.Context(), s.c.State().At(30), owner, uint64(waxSym.Code))
			if err != nil || l.balances[owner] != row.Balance {
				t.Errorf("%s: %v, the chain has %v (%v)", owner, l.balances[owner], row.Balance, err)
			}
		}
	}
}

// lyingFinality serves a chain's blocks reporting a last irreversible
// block two below the head, whatever the chain's: a node whose finality
// is wrong, so that a fork below it can be served.
type lyingFinality struct{ shiptest.BlockSource }

func (l lyingFinality) Heads() (head, lib uint32) {
	head, _ = l.BlockSource.Heads()
	return head, head - 2
}

// A node that rolls back below the last irreversible block it reported —
// below the reversible blocks the stream holds — ends the stream with
// ErrForkBelowReversible, naming the blocks.
func TestSHiPForkBelowReversibleIsAnError(t *testing.T) {
	s := newShipTester(t, "go", chaintest.WithManualFinality())
	s.upTo(20)
	srv := shiptest.NewServer(lyingFinality{s.c.BlockSource()})
	defer srv.Close()
	var err error
	for ev, e := range ship.NewClient(srv.URL, ship.WithBackoff(time.Millisecond, 10*time.Millisecond)).Stream(s.ctx(), ship.Request{Start: 1}) {
		if e != nil {
			err = e
			break
		}
		if ev.Block.Num == 18 {
			s.rollback(12, 8) // below 16, which the stream was told is final
		}
	}
	// Block 13 while the session rewinds; or, if the node sent the new
	// block 13 before its head passed 14 (this node's last irreversible
	// block falls with its head: it does not hold 13 final, so it is
	// behind and the stream tries again), the oldest position the stream
	// holds (have_positions), which the node's branch left: 13 to 18.
	named := false
	for n := 13; n <= 18; n++ {
		named = named || err != nil && strings.Contains(err.Error(), fmt.Sprintf("went back to block %d;", n))
	}
	if !errors.Is(err, ship.ErrForkBelowReversible) || !named {
		t.Fatalf("%v", err)
	}
}
