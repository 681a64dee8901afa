package mirror

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/ship"
)

var (
	orders    = antelope.MustName("orders")
	putName   = antelope.MustName("put")
	eraseName = antelope.MustName("erase")
)

// ordersContract stores each put's data as the row of its id in the
// owner's scope, with the owner as the secondary key; erase deletes it.
func ordersContract(x *chaintest.Context) error {
	data := x.Action.Data
	if len(data) < 16 {
		return errors.New("short")
	}
	id := binary.LittleEndian.Uint64(data)
	owner := antelope.Name(binary.LittleEndian.Uint64(data[8:]))
	switch x.Action.Name {
	case putName:
		return x.Set(owner, orders, id, data, x.Code(), antelope.KeyName(owner))
	case eraseName:
		x.Delete(owner, orders, id)
	}
	return nil
}

// randomOrder packs an order with random nested values; note (the binary
// extension) is there or not.
func randomOrder(rng *rand.Rand, id uint64, owner antelope.Name) []byte {
	var p packer
	p.le(id).le(uint64(owner))
	p.le(rng.Int64N(1<<40)).raw(4, 'W', 'A', 'X', 0, 0, 0, 0)
	n := rng.IntN(3)
	p.raw(byte(n))
	for i := range n {
		p.str(fmt.Sprintf("t\"%d", i))
	}
	if rng.IntN(2) == 0 {
		p.raw(0)
	} else {
		p.raw(1).le(rng.Uint32()).le(rng.Int64()).le(-rng.Int64())
	}
	switch rng.IntN(3) {
	case 0:
		p.raw(0, byte(rng.IntN(256)))
	case 1:
		p.raw(1).str("buy ✓")
	default:
		p.raw(2).le(rng.Uint32()).le(rng.Int64()).le(rng.Int64())
	}
	n = rng.IntN(3)
	p.raw(byte(n))
	for range n {
		p.le(rng.Int64N(1<<62)).raw(8, 'W', 'A', 'X', 0, 0, 0, 0).le(uint64(owner)).le(rng.Uint32())
	}
	if rng.IntN(2) == 0 {
		p.str("note")
	}
	return p.Bytes()
}

// A contract of nested types (optionals, variants, arrays, fixed arrays,
// typedefs, a binary extension) and a secondary key, put and erased at
// random, with forks and crashes between statements: the mirror ends
// equal to the chain's rows, with each put once.
func TestNestedContract(t *testing.T) {
	abi, err := os.ReadFile("testdata/orders.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			t.Parallel()
			node := chaintest.New(chaintest.WithManualFinality())
			t.Cleanup(node.Close)
			tc := &tokenChain{t: t, node: node, cl: node.Client(chain.WithClock(func() time.Time { return node.Head().Time })),
				keys: map[antelope.Name]antelope.PrivateKey{}}
			book := antelope.MustName("book")
			owners := []antelope.Name{alice, bob, carol}
			for _, n := range append([]antelope.Name{book}, owners...) {
				tc.keys[n] = node.NewAccount(n)
			}
			tc.start = node.Head().Num + 1
			if err := node.SetContract(book, abi, ordersContract); err != nil {
				t.Fatal(err)
			}
			if err := node.SetLastIrreversible(node.Head().Num); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, uint64(len(dbk.name))))
			step := func() {
				owner := owners[rng.IntN(len(owners))]
				id := uint64(rng.IntN(8))
				act := antelope.Action{Account: book, Name: putName, Authorization: []antelope.PermissionLevel{{Actor: owner, Permission: antelope.MustName("active")}}}
				if rng.IntN(4) == 0 {
					act.Name = eraseName
					act.Data = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, id), uint64(owner))
				} else {
					act.Data = randomOrder(rng, id, owner)
				}
				tc.send(owner, act)
			}
			db, d := dbk.open(t)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			open := func() *Mirror {
				m, err := Open(ctx, db, d, abi, Options{Contract: book, Actions: true})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			for round := range rounds() {
				for range 3 + rng.IntN(4) {
					step()
				}
				m := open()
				statements, at := 0, 1+rng.IntN(40)
				m.crash = func() error {
					if statements++; statements == at {
						return errCrash
					}
					return nil
				}
				if err := m.Run(ctx, node.SHiPClient(), ship.Request{Start: tc.start, End: node.Head().Num + 1}, nil); err != nil && !errors.Is(err, errCrash) {
					t.Fatalf("round %d: %v", round, err)
				}
				head, lib := node.Head().Num, node.LastIrreversible().Num
				if at := lib + 1 + uint32(rng.IntN(int(head-lib))); at < head {
					if err := node.Rollback(at); err != nil {
						t.Fatal(err)
					}
				}
				if err := node.SetLastIrreversible(lib + uint32(rng.IntN(2))); err != nil {
					t.Fatal(err)
				}
			}
			step()
			m := open()
			if err := m.Run(ctx, node.SHiPClient(), ship.Request{Start: tc.start, End: node.Head().Num + 1}, nil); err != nil {
				t.Fatal(err)
			}
			checkTables(t, tc, m)
			var puts, want int
			if err := db.QueryRow(`SELECT COUNT(*) FROM "put_action"`).Scan(&puts); err != nil {
				t.Fatal(err)
			}
			stream := node.SHiPClient().Stream(ctx, ship.Request{Start: tc.start, End: node.Head().Num + 1, Fetch: ship.FetchTraces})
			for ev, err := range stream {
				if err != nil {
					t.Fatal(err)
				}
				for _, err := range ev.Block.Actions(ship.OfContract(book), ship.Named(putName)) {
					if err != nil {
						t.Fatal(err)
					}
					want++
				}
			}
			if puts != want || want == 0 {
				t.Errorf("%d puts mirrored, %d on the chain", puts, want)
			}
			if len(m.schema.Indexes) != 3 || m.schema.Indexes[0].Columns[2] != "owner" {
				t.Errorf("indexes %+v: want owner's (and the two action tables' block)", m.schema.Indexes)
			}
		})
	}
}
