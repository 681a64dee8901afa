package mirror

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A mirror of eosio.token over real transfers equals the chain's tables,
// and holds every transfer once.
func TestMirrorToken(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			t.Parallel()
			tc := newTokenChain(t)
			for k := range 30 {
				tc.block(k)
			}
			db, d := dbk.open(t)
			m := mirrorOf(t, db, d, false)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil); err != nil {
				t.Fatal(err)
			}
			checkTables(t, tc, m)
			got, want := actionsOf(t, m, "transfer"), chainTransfers(t, tc)
			if len(want) < 30 || !equalLists(got, want) {
				t.Errorf("transfers: mirror %d, chain %d\n%v\n%v", len(got), len(want), got, want)
			}
		})
	}
}

func equalLists(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A setabi of the same ABI (a redeployment) changes nothing; a setabi of
// another ABI stops the mirror before its block, with everything below it
// committed; and a database made for one ABI refuses another.
func TestABIChange(t *testing.T) {
	tc := newTokenChain(t)
	tc.block(0)
	wasm, _ := os.ReadFile("testdata/eosio.token.wasm")
	if err := tc.node.DeployWASM(token, wasm, tokenABI(t)); err != nil {
		t.Fatal(err)
	}
	tc.block(1)
	db, d := databases()[0].open(t)
	m := mirrorOf(t, db, d, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := func() error {
		return m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil)
	}
	if err := run(); err != nil {
		t.Fatalf("a redeployment of the same ABI: %v", err)
	}
	before := tc.node.Head().Num
	other := bytes.Replace(tokenABI(t), []byte(`"name": "memo"`), []byte(`"name": "note"`), 1)
	if bytes.Equal(other, tokenABI(t)) {
		t.Fatal("the ABI did not change")
	}
	if err := tc.node.DeployWASM(token, wasm, other); err != nil {
		t.Fatal(err)
	}
	tc.block(2)
	// The way on in this database is a migration: the error says so.
	if err := run(); !errors.Is(err, ErrABIChangedOnChain) || !strings.Contains(err.Error(), "--migrate") {
		t.Fatalf("another ABI set on chain: %v", err)
	}
	if c, err := m.Cursor(ctx); err != nil || c.Last().Num != before {
		t.Errorf("cursor at %d (%v), want the block before the setabi, %d", c.Last().Num, err, before)
	}
	if _, err := Open(ctx, db, d, other, Options{Contract: token, Actions: true}); !errors.Is(err, ErrABIChanged) {
		t.Errorf("a database of another ABI: %v", err)
	}
	if _, err := Open(ctx, db, d, []byte("{"), Options{Contract: token}); !errors.Is(err, ErrInvalidABI) {
		t.Errorf("not an ABI: %v", err)
	}
}

// A FinalOnly mirror keeps no undo log, so an Undo given to it is an error,
// not a silent no-op.
func TestFinalOnlyRefusesUndo(t *testing.T) {
	db, d := databases()[0].open(t)
	m := mirrorOf(t, db, d, true)
	err := m.Apply(context.Background(), ship.Event{Undo: &ship.Undo{Blocks: []ship.Position{{Num: 5}}}})
	if err == nil || !strings.Contains(err.Error(), "FinalOnly") {
		t.Errorf("Undo on a FinalOnly mirror: %v", err)
	}
}
