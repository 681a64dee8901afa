package mirror

import (
	"context"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A mirror of eosio.token over real transfers equals the chain's tables,
// and holds every transfer once.
func TestMirrorToken(t *testing.T) {
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
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
