package ship_test

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/internal/shipcheck"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// ledger is a consumer's state: bob's balance from eosio.token transfers,
// with each reversible block's credit kept to undo it.
type ledger struct {
	Balance int64
	Credits map[uint32]int64
}

func (l *ledger) clone() ledger {
	c := ledger{Balance: l.Balance, Credits: map[uint32]int64{}}
	for k, v := range l.Credits {
		c.Credits[k] = v
	}
	return c
}

// apply handles one event.
func (l *ledger) apply(t *testing.T, ev ship.Event) {
	if ev.Undo != nil {
		for _, p := range ev.Undo.Blocks {
			l.Balance -= l.Credits[p.Num]
			delete(l.Credits, p.Num)
		}
		return
	}
	var credit int64
	for tr, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer) {
		if err != nil {
			t.Fatal(err)
		}
		if tr.Data.To == bob {
			credit += tr.Data.Quantity.Amount
		}
	}
	l.Balance += credit
	l.Credits[ev.Block.Num] = credit
	for n := range l.Credits {
		if n < ev.Block.LastIrreversible.Num {
			delete(l.Credits, n)
		}
	}
}

// A consumer killed at random points — before persisting, after persisting
// but before the ack, mid-block — and resumed from what it persisted ends
// with the balance of the chain's final branch, while the chain forks
// between runs.
func TestKillAndResume(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		chain := transferChain(t, 60)
		chain.SetLastIrreversible(5)
		srv := shiptest.NewServer(chain)

		var saved struct {
			state  ledger
			cursor ship.Cursor
		}
		saved.state = ledger{Credits: map[uint32]int64{}}
		const end = 61
		for runs := 0; ; runs++ {
			if runs > 200 {
				t.Fatal("no progress")
			}
			state := saved.state.clone()
			killAt := rng.IntN(12) + 1
			mode := rng.IntN(3) // 0: before persisting, 1: after persisting (before the ack), 2: mid-block
			events := 0
			finished := true
			stream := fastClient(srv.URL, ship.WithWindow(uint32(rng.IntN(8)+1))).Stream(testContext(t), ship.Request{Start: 1, End: end, Cursor: saved.cursor})
			for ev, err := range stream {
				if err != nil {
					t.Fatal(err)
				}
				events++
				if events == killAt && mode == 2 {
					finished = false
					break // killed while handling: nothing of this event persisted
				}
				state.apply(t, ev)
				if events == killAt && mode == 0 {
					finished = false
					break
				}
				saved.state, saved.cursor = state.clone(), ev.Cursor() // persisted together
				if events == killAt && mode == 1 {
					finished = false
					break // killed between the handler and the ack
				}
			}
			// Meanwhile the chain may fork above its last irreversible block.
			if head, lib := chain.Heads(); head > lib && rng.IntN(3) == 0 {
				at := lib + uint32(rng.IntN(int(head-lib)))
				chain.Fork(at)
				if rng.IntN(2) == 0 {
					chain.SetLastIrreversible(min(at+uint32(rng.IntN(5)), head))
				}
			}
			if finished && saved.cursor.Last().Num == end-1 {
				if fin, _ := chain.Block(end - 1); fin.ID == saved.cursor.Last().ID {
					break
				}
			}
		}
		want := int64(0)
		for n := uint32(1); n < end; n++ {
			want += int64(n) * 10000
		}
		if saved.state.Balance != want {
			t.Errorf("seed %d: balance %d, an uninterrupted run gives %d", seed, saved.state.Balance, want)
		}
		srv.Close()
	}
}

// The node never has more blocks in flight than the window, and a
// consumer that does not return holds the node back instead of making the
// client buffer.
func TestFlowControl(t *testing.T) {
	chain := transferChain(t, 100)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	const window = 4
	n := 0
	for ev, err := range fastClient(srv.URL, ship.WithWindow(window)).Stream(testContext(t), ship.Request{Start: 1, End: 101}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ev.Block.Num == 10 {
			// A consumer that does not return: the node stops at the window.
			time.Sleep(300 * time.Millisecond)
			if sent := srv.BlocksSent(); sent > 10+window {
				t.Errorf("%d blocks sent while the consumer was busy with block 10 (window %d)", sent, window)
			}
		}
	}
	if n != 100 || srv.MaxInFlight() > window {
		t.Errorf("%d blocks; %d in flight at most, window %d", n, srv.MaxInFlight(), window)
	}
}

func TestDropMidMessageAndStall(t *testing.T) {
	chain := transferChain(t, 50)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	b := &shipcheck.Branch{T: t}
	var logs int
	var stalled atomic.Bool
	client := fastClient(srv.URL, ship.WithWindow(2), ship.WithStallTimeout(150*time.Millisecond), ship.WithLogger(func(string, ...any) {
		logs++
		// The stall lasts until the client gives it up: ended after a
		// fixed time, it could end before a slow machine's client even
		// waited for the stall timeout, and no stall was seen.
		if stalled.Swap(false) {
			srv.Stall(false)
		}
	}))
	for ev, err := range client.Stream(testContext(t), ship.Request{Start: 1, End: 51}) {
		if err != nil {
			t.Fatal(err)
		}
		b.Event(ev)
		switch ev.Block.Num {
		case 10:
			srv.DropMidMessage(3)
		case 30:
			srv.Stall(true)
			stalled.Store(true)
		}
	}
	matches(b, chain)
	if len(b.Blocks) != 50 || srv.Connections() < 5 || logs < 4 {
		t.Errorf("%d blocks, %d connections, %d log lines", len(b.Blocks), srv.Connections(), logs)
	}
}

func TestMessageTooLarge(t *testing.T) {
	chain := transferChain(t, 3)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var err error
	for _, e := range fastClient(srv.URL, ship.WithMaxMessageSize(200)).Stream(testContext(t), ship.Request{Start: 1, End: 4}) {
		err = e
	}
	var tooLarge *ship.MessageTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != 200 {
		t.Fatalf("%v", err)
	}
}

func TestGiveUp(t *testing.T) {
	var err error
	for _, e := range fastClient("ws://127.0.0.1:1", ship.WithMaxReconnects(2)).Stream(testContext(t), ship.Request{Start: 1}) {
		err = e
	}
	if err == nil || !containsAll(err.Error(), "giving up after 3", "cannot connect", "state_history_plugin") {
		t.Fatalf("%v", err)
	}
}
