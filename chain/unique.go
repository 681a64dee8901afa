package chain

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// built remembers the transactions BuildTransaction made in this process
// until they expire, by id. Two identical calls (the same actions, within
// get_info's cache or before the reference block moves) would otherwise
// build the same transaction: the second's retry would meet the first's
// tx_duplicate and both report one transfer done.
var built = struct {
	sync.Mutex
	until  map[antelope.Checksum256]time.Time // id → when it can be forgotten (this machine's clock)
	pruned time.Time                          // when until was last pruned
}{until: map[antelope.Checksum256]time.Time{}}

// makeDistinct gives tx an id no other transaction built in this process
// and not yet expired has: its expiration is moved earlier a second at a
// time, down to half the client's expiration. lifetime is how long tx is
// valid. More identical transactions than that in flight at once is an
// error: nothing distinguishes them that nodeos would keep.
func makeDistinct(tx *antelope.Transaction, lifetime time.Duration) error {
	now := time.Now()
	built.Lock()
	defer built.Unlock()
	// Pruned at most once a second: a busy process builds many.
	if now.Sub(built.pruned) > time.Second {
		built.pruned = now
		for id, until := range built.until {
			if now.After(until) {
				delete(built.until, id)
			}
		}
	}
	latest := tx.Expiration
	steps := max(int(lifetime/time.Second)/2, 1)
	for range steps {
		b, err := tx.MarshalBinary()
		if err != nil {
			return err
		}
		id := antelope.Checksum256(sha256.Sum256(b))
		if _, dup := built.until[id]; !dup {
			// Forget it once it can no longer be sent: its lifetime,
			// and a margin for the chain's clock running behind ours.
			built.until[id] = now.Add(lifetime + time.Minute)
			return nil
		}
		tx.Expiration--
	}
	tx.Expiration = latest
	return fmt.Errorf("%d identical transactions built in this process are in flight: another would be one of them (wait for one to expire, or make the actions differ)", steps)
}
