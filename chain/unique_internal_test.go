package chain

import (
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// makeDistinct moves an identical transaction's expiration a second
// earlier each time, down to half its lifetime; beyond that it refuses,
// never returning a transaction already built.
func TestMakeDistinctBound(t *testing.T) {
	base := antelope.Transaction{Actions: []antelope.Action{{Account: nameEosio, Name: nameNoop, Authorization: []antelope.PermissionLevel{}, Data: []byte{0x31}}},
		ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
	base.SetExpiration(time.Unix(2_000_000_000, 0))
	seen := map[antelope.TimePointSec]bool{}
	for i := range 3 {
		tx := base
		if err := makeDistinct(&tx, 6*time.Second); err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if seen[tx.Expiration] || tx.Expiration > base.Expiration || tx.Expiration < base.Expiration-2 {
			t.Fatalf("build %d: expiration %v", i, tx.Expiration)
		}
		seen[tx.Expiration] = true
	}
	tx := base
	if err := makeDistinct(&tx, 6*time.Second); err == nil {
		t.Fatalf("a fourth identical transaction in a 6 s lifetime: expiration %v", tx.Expiration)
	}
}
