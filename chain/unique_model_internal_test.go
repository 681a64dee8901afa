package chain

import (
	"crypto/sha256"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Issue #31 defect 3 against any pacing of the pruning (#34): identical
// transactions built from several goroutines, on a few reference blocks
// of two chains, from heads that advance, stall and go back (a stale node,
// the info cache), while this machine's clock jumps forward and back —
// no two builds ever return the same transaction.
func TestMakeDistinctNeverRepeatsModel(t *testing.T) {
	defer func() {
		clock = time.Now
		built.Lock()
		built.pruned = time.Time{} // the test's clock ran hours ahead
		built.Unlock()
	}()
	var clockMu sync.Mutex
	local := time.Now()
	clock = func() time.Time {
		clockMu.Lock()
		defer clockMu.Unlock()
		return local
	}
	var mu sync.Mutex
	builtIDs := map[antelope.Checksum256]int{}
	head := int64(2_100_000_000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(34, uint64(g)))
			for i := range 1500 {
				clockMu.Lock()
				switch rng.IntN(10) {
				case 0:
					local = local.Add(-time.Duration(rng.IntN(3)) * time.Second)
				case 1, 2, 3:
					local = local.Add(time.Duration(rng.IntN(2500)) * time.Millisecond)
				}
				clockMu.Unlock()
				mu.Lock()
				if rng.IntN(3) == 0 {
					head += int64(rng.IntN(3))
				}
				h := head - int64(rng.IntN(3))*int64(rng.IntN(8)) // sometimes a stale head
				mu.Unlock()
				lifetime := time.Duration(2+rng.IntN(6)) * time.Second
				tx := antelope.Transaction{Actions: []antelope.Action{{Account: nameEosio, Name: nameNoop, Authorization: []antelope.PermissionLevel{}, Data: []byte{0x34}}},
					ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
				ref := rng.IntN(3)
				tx.RefBlockNum, tx.RefBlockPrefix = uint16(ref), uint32(ref)
				tx.SetExpiration(time.Unix(h, 0).Add(lifetime))
				chainID := antelope.Checksum256{34, byte(rng.IntN(2))}
				if makeDistinct(&tx, lifetime, chainID, time.Unix(h, 0)) != nil {
					continue // refusing is safe
				}
				b, err := tx.MarshalBinary()
				if err != nil {
					t.Error(err)
					return
				}
				id := antelope.Checksum256(sha256.Sum256(append(chainID[:], b...)))
				mu.Lock()
				if prev, ok := builtIDs[id]; ok {
					mu.Unlock()
					t.Errorf("goroutine %d build %d: the same transaction as build %d (expiration %v)", g, i, prev, tx.Expiration)
					return
				}
				builtIDs[id] = g*10000 + i
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(builtIDs) < 1000 {
		t.Fatalf("only %d transactions built: the test proves little", len(builtIDs))
	}
}
