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
		if err := makeDistinct(&tx, 6*time.Second, antelope.Checksum256{1}, time.Unix(2_000_000_000-6, 0)); err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if seen[tx.Expiration] || tx.Expiration > base.Expiration || tx.Expiration < base.Expiration-2 {
			t.Fatalf("build %d: expiration %v", i, tx.Expiration)
		}
		seen[tx.Expiration] = true
	}
	tx := base
	if err := makeDistinct(&tx, 6*time.Second, antelope.Checksum256{1}, time.Unix(2_000_000_000-6, 0)); err == nil {
		t.Fatalf("a fourth identical transaction in a 6 s lifetime: expiration %v", tx.Expiration)
	}
}

// A node whose head stopped (or get_info's cache, WithInfoCache) gives
// the same TAPoS and expiration minutes apart. The first transaction,
// executed, must not be forgotten while an identical one can still be
// built: the second's send would meet the first in a block (tx_duplicate
// or expired, settled by the chain) and report a transfer done that never
// happened. The memory of built transactions follows the chain's clock,
// not this machine's.
func TestMakeDistinctStaleHead(t *testing.T) {
	head := time.Unix(2_000_000_000, 0)
	local := time.Now()
	defer func() { clock = time.Now }()
	seen := map[antelope.TimePointSec]bool{}
	for i := range 3 {
		clock = func() time.Time { return local.Add(time.Duration(i) * 10 * time.Minute) }
		tx := antelope.Transaction{Actions: []antelope.Action{{Account: nameEosio, Name: nameNoop, Authorization: []antelope.PermissionLevel{}, Data: []byte{0x32}}},
			ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
		tx.SetExpiration(head.Add(2 * time.Minute))
		if err := makeDistinct(&tx, 2*time.Minute, antelope.Checksum256{2}, head); err != nil {
			continue // refusing to build is safe
		}
		if seen[tx.Expiration] {
			t.Fatalf("build %d, %d minutes later against the same head: the same transaction again (expiration %v)", i, 10*i, tx.Expiration)
		}
		seen[tx.Expiration] = true
	}
}

// The memory of built transactions is pruned at most once a second, not at
// each new reference block: a test chain gives every transaction a
// reference block of its own, and pruning at each made building a
// thousand transactions quadratic.
func TestMakeDistinctPrunesOncePerSecond(t *testing.T) {
	local := time.Now()
	defer func() { clock = time.Now }()
	clock = func() time.Time { return local }
	built.Lock()
	built.pruned = time.Time{}
	scans := built.scans
	built.Unlock()
	head := time.Unix(2_000_000_000, 0)
	for i := range 200 {
		tx := antelope.Transaction{Actions: []antelope.Action{{Account: nameEosio, Name: nameNoop, Authorization: []antelope.PermissionLevel{}, Data: []byte{0x33}}},
			ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
		tx.RefBlockNum, tx.RefBlockPrefix = uint16(i), uint32(i)
		tx.SetExpiration(head.Add(2 * time.Minute))
		if err := makeDistinct(&tx, 2*time.Minute, antelope.Checksum256{3}, head); err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
	}
	built.Lock()
	n := built.scans - scans
	built.Unlock()
	if n != 1 {
		t.Fatalf("200 builds on 200 reference blocks within a second scanned the memory %d times, not once", n)
	}
}
