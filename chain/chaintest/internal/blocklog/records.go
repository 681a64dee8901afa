package blocklog

import (
	"fmt"

	"github.com/antelopego/abigen/ship/shiptest"
)

// Log is the chain's record of its blocks: each block's record, the last
// irreversible block, the branch (forks so far) and the subscribers. It
// holds execution's committed transactions (T) and the state outside the
// tables as of a block (S) without knowing what they are: chaintest fills
// them in and reads them back (its blocklog.go, shipblock.go, fork.go).
//
// Block numbers are given with the chain's first block (first) and head
// (head), which the chain keeps; Records[i] is block first+i.
type Log[T, S any] struct {
	Records []Record[T, S]
	// Manual is WithManualFinality: the last irreversible block moves only
	// when SetLastIrreversible moves it.
	Manual bool
	lib    uint32 // the last irreversible block, when Manual
	// Branch counts the forks so far, salted into the ids of blocks made
	// since (ID).
	Branch uint32
	Subs   Subscribers
}

// Record is one block's record.
type Record[T, S any] struct {
	Txs      []T
	Accounts []AccountChange
	State    *S              // the state at the end of the block, kept while it is reversible
	Encoded  *shiptest.Block // the block as state history serves it, made on first request
}

// LastIrreversible is the last irreversible block's number: the head,
// unless the log is Manual (then the first block until SetLastIrreversible
// moves it).
func (l *Log[T, S]) LastIrreversible(first, head uint32) uint32 {
	if l.Manual {
		return max(l.lib, first)
	}
	return head
}

// Append records a block produced: r is block first+len(Records).
func (l *Log[T, S]) Append(r Record[T, S], first, head uint32) {
	l.Records = append(l.Records, r)
	l.PruneStates(first, head)
}

// PruneStates forgets the saved states of irreversible blocks below the
// last one: no fork can go back to them.
func (l *Log[T, S]) PruneStates(first, head uint32) {
	for i := int(l.LastIrreversible(first, head)-first) - 1; i >= 0 && l.Records[i].State != nil; i-- {
		l.Records[i].State = nil
	}
}

// SetLastIrreversible makes block n the last irreversible block, on a
// Manual log: finality moves forward only, and not past the head.
func (l *Log[T, S]) SetLastIrreversible(n, first, head uint32) error {
	switch lib := l.LastIrreversible(first, head); {
	case !l.Manual:
		return fmt.Errorf("chaintest: every block is irreversible as soon as it is produced: make the chain WithManualFinality to set the last irreversible block")
	case n < lib:
		return fmt.Errorf("chaintest: block %d is irreversible already (the last irreversible block is %d): finality never moves back", n, lib)
	case n > head:
		return fmt.Errorf("chaintest: block %d is above the head block %d", n, head)
	}
	l.lib = n
	l.PruneStates(first, head)
	return nil
}

// CheckFork refuses a fork (what: Fork or Rollback) to block n unless the
// log is Manual and n is at or above the last irreversible block and
// below the head.
func (l *Log[T, S]) CheckFork(what string, n, first, head uint32) error {
	switch lib := l.LastIrreversible(first, head); {
	case !l.Manual:
		return fmt.Errorf("chaintest: %s(%d): every block is irreversible as soon as it is produced: make the chain WithManualFinality to have blocks a fork can replace", what, n)
	case n < lib:
		return fmt.Errorf("chaintest: %s(%d): block %d is irreversible (the last irreversible block is %d): no fork goes below it", what, n, n+1, lib)
	case n >= head:
		return fmt.Errorf("chaintest: %s(%d): no blocks above %d to replace (the head is %d)", what, n, n, head)
	}
	return nil
}

// Rebranch starts a new branch replacing the blocks above index k (Fork):
// their records keep what they did, but their encodings, which hold their
// ids, are dropped. The caller gives those blocks new ids (with the new
// Branch) and notifies the subscribers.
func (l *Log[T, S]) Rebranch(k int) {
	l.Branch++
	for i := k + 1; i < len(l.Records); i++ {
		l.Records[i].Encoded = nil
	}
}

// Truncate drops the records above index k and starts a new branch
// (Rollback); the caller restores the state Records[k].State held
// before, and notifies the subscribers.
func (l *Log[T, S]) Truncate(k int) {
	l.Records = l.Records[:k+1]
	l.Branch++
}
