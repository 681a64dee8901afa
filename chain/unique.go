package chain

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// built remembers, per chain, the transactions BuildTransaction made in
// this process while they can still be sent, by id. Two identical calls
// (the same actions, within get_info's cache or before the reference block
// moves) would otherwise build the same transaction: the second's retry
// would meet the first's tx_duplicate and both report one transfer done.
// What "can still be sent" means is the chain's clock, never this
// machine's: a node whose head stopped, or a long info cache, gives the
// same TAPoS and expiration minutes apart.
var built = struct {
	sync.Mutex
	refs   map[builtKey]*builtOn
	pruned time.Time // when refs were last pruned (this machine's clock)
	scans  int       // how many times they were (a test counts them)
}{refs: map[builtKey]*builtOn{}}

// builtKey is a chain and a reference block: identical transactions share
// both (two chains, or two test chains, with one id do not share block
// ids).
type builtKey struct {
	chain     antelope.Checksum256
	refNum    uint16
	refPrefix uint32
}

// forgetRef is how long after a reference block's newest head an empty
// entry is kept: past nodeos's TAPoS window (65,536 blocks, 9 h), a
// transaction built on it is refused as invalid_ref_block.
const forgetRef = 24 * time.Hour

// builtOn is what was built on one reference block of one chain.
type builtOn struct {
	head   int64                                          // the newest head block time a build saw (Unix seconds)
	expire map[antelope.Checksum256]antelope.TimePointSec // id → its expiration; nil once empty
}

// clock is this machine's clock, which only paces the pruning (a test
// moves it).
var clock = time.Now

// makeDistinct gives tx, built for chainID from a node whose head block
// time is head, an id no other transaction built in this process and not
// yet expired on that chain has: its expiration is moved earlier a second
// at a time, down to half the client's expiration. lifetime is how long tx
// is valid. More identical transactions than that in flight at once is an
// error: nothing distinguishes them that nodeos would keep. A transaction
// already expired by the newest head seen is refused: built from a stale
// head, it could repeat one sent and forgotten.
func makeDistinct(tx *antelope.Transaction, lifetime time.Duration, chainID antelope.Checksum256, head time.Time) error {
	now := clock()
	built.Lock()
	defer built.Unlock()
	key := builtKey{chainID, tx.RefBlockNum, tx.RefBlockPrefix}
	on := built.refs[key]
	if on == nil {
		on = &builtOn{}
		built.refs[key] = on
	}
	on.head = max(on.head, head.Unix())
	// Pruned at most once a second, all references at once: a busy
	// process builds many, each transaction of a test chain on a
	// reference block of its own (pruning at each new one made building
	// quadratic). A transaction that expired before the newest head can
	// never be executed again, nor built again (below).
	if now.Sub(built.pruned) > time.Second {
		built.pruned = now
		built.scans++
		for k, o := range built.refs {
			for id, exp := range o.expire {
				if int64(exp) < o.head {
					delete(o.expire, id)
				}
			}
			if len(o.expire) == 0 {
				o.expire = nil // an empty reference costs the next scans nothing
				if k.chain == chainID && o.head < on.head-int64(forgetRef/time.Second) {
					delete(built.refs, k)
				}
			}
		}
	}
	if on.expire == nil {
		on.expire = map[antelope.Checksum256]antelope.TimePointSec{}
	}
	latest := tx.Expiration
	steps := max(int(lifetime/time.Second)/2, 1)
	for range steps {
		if int64(tx.Expiration) < on.head {
			tx.Expiration = latest
			return fmt.Errorf("the transaction would expire at %s, before the newest head block time seen (%s): the node's head or the info cache is stale",
				time.Unix(int64(latest), 0).UTC(), time.Unix(on.head, 0).UTC())
		}
		b, err := tx.MarshalBinary()
		if err != nil {
			return err
		}
		id := antelope.Checksum256(sha256.Sum256(b))
		if _, dup := on.expire[id]; !dup {
			on.expire[id] = tx.Expiration
			return nil
		}
		tx.Expiration--
	}
	tx.Expiration = latest
	return fmt.Errorf("%d identical transactions built in this process are in flight: another would be one of them (wait for one to expire, or make the actions differ)", steps)
}
