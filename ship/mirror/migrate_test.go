package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// editABI returns the token ABI with edit applied to its "account" struct's
// fields.
func editABI(t *testing.T, edit func(fields []any) []any) []byte {
	t.Helper()
	var abi map[string]any
	if err := json.Unmarshal(tokenABI(t), &abi); err != nil {
		t.Fatal(err)
	}
	for _, s := range abi["structs"].([]any) {
		if st := s.(map[string]any); st["name"] == "account" {
			st["fields"] = edit(st["fields"].([]any))
		}
	}
	out, err := json.Marshal(abi)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The contract sets an ABI that appends a binary extension to its rows:
// the mirror stops before that block; opened with the new ABI it refuses
// the database unless asked to migrate; migrated, the accounts table has
// the new column and goes on equal to the chain. An ABI that retypes a
// field of stored rows is refused even with Migrate, naming the change.
func TestMigrate(t *testing.T) {
	extended := func(t *testing.T) []byte {
		return editABI(t, func(f []any) []any { return append(f, map[string]any{"name": "note", "type": "string$"}) })
	}
	retyped := func(t *testing.T) []byte {
		return editABI(t, func(f []any) []any {
			f[0].(map[string]any)["type"] = "extended_asset"
			return f
		})
	}
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			t.Parallel()
			tc := newTokenChain(t)
			for k := range 10 {
				tc.block(k)
			}
			db, d := dbk.open(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			run := func(m *Mirror) error {
				return m.Run(ctx, tc.node.SHiPClient(), ship.Request{Start: tc.start, End: tc.node.Head().Num + 1}, nil)
			}
			if err := run(mirrorOf(t, db, d, false)); err != nil {
				t.Fatal(err)
			}
			v2 := extended(t)
			wasm, _ := os.ReadFile("testdata/eosio.token.wasm")
			if err := tc.node.DeployWASM(token, wasm, v2); err != nil {
				t.Fatal(err)
			}
			for k := 10; k < 20; k++ {
				tc.block(k)
			}
			if err := run(mirrorOf(t, db, d, false)); !errors.Is(err, ErrABIChangedOnChain) {
				t.Fatalf("the setabi: %v", err)
			}
			opts := Options{Contract: token, Actions: true}
			if _, err := Open(ctx, db, d, v2, opts); !errors.Is(err, ErrABIChanged) {
				t.Fatalf("another ABI without Migrate: %v", err)
			}
			opts.Migrate = true
			if _, err := Open(ctx, db, d, retyped(t), opts); !errors.Is(err, ErrABIChanged) || !strings.Contains(err.Error(), "cannot be migrated") {
				t.Fatalf("a retyped field with Migrate: %v", err)
			}
			m, err := Open(ctx, db, d, v2, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := run(m); err != nil {
				t.Fatal(err)
			}
			checkTables(t, tc, m)
			if got, want := actionsOf(t, m, "transfer"), chainTransfers(t, tc); !equalLists(got, want) {
				t.Errorf("transfers: mirror %d, chain %d", len(got), len(want))
			}
			var rows, notes int
			if err := db.QueryRow(`SELECT COUNT(*), COUNT("note") FROM "accounts"`).Scan(&rows, &notes); err != nil || rows == 0 || notes != 0 {
				t.Errorf("accounts: %d rows, %d notes (%v)", rows, notes, err)
			}
		})
	}
}
