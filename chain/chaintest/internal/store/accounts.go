package store

import "github.com/antelopego/abigen/antelope"

// Accounts is the chain's accounts by name: permissions, links, RAM, CPU
// and NET, privilege and sequences, each an A (chaintest's account record,
// which execution reads and writes field by field). A snapshot holds
// copies, so later changes to the chain's accounts leave it as it was; an
// account's maps (permissions, links) are shared by those copies, which is
// why they are replaced, never changed in place, outside a transaction,
// and copied by Undo.Save inside one.
//
// It is a map so that execution keeps indexing it as it always has.
type Accounts[A any] map[antelope.Name]*A

// AccountFiller fetches a forked chain's account into the store the first
// time it is looked up and not found (internal/fork's fork.State); a chain
// that is no fork has none.
type AccountFiller interface {
	FillAccount(n antelope.Name)
}

// Lookup is account n, nil if there is none; on a fork (fill non-nil) an
// account not held yet is filled first.
func (t Accounts[A]) Lookup(n antelope.Name, fill AccountFiller) *A {
	if a := t[n]; a != nil || fill == nil {
		return a
	}
	fill.FillAccount(n)
	return t[n]
}

// Snapshot is a copy of every account that later changes to t (a helper
// changing an account in place, a transaction replacing one) leave alone:
// a block's state kept for Rollback, or the chain's state brought back
// from one (a chain may roll back to the same block twice).
func (t Accounts[A]) Snapshot() Accounts[A] {
	s := make(Accounts[A], len(t))
	for n, a := range t {
		cp := *a
		s[n] = &cp
	}
	return s
}

// AccountUndo keeps the accounts a transaction changed as they were before
// it, so that a failed one changes nothing.
type AccountUndo[A any] struct {
	saved map[antelope.Name]*A // the account before the change; nil: it did not exist
}

// Save saves account n before it is changed, the first time only: old is
// the account now (nil: none), and t[n] becomes clone(old), the copy the
// caller then changes (clone copies what is changed in place, such as the
// account's maps).
func (u *AccountUndo[A]) Save(t Accounts[A], n antelope.Name, old *A, clone func(*A) *A) {
	if _, saved := u.saved[n]; saved {
		return
	}
	if u.saved == nil {
		u.saved = map[antelope.Name]*A{}
	}
	u.saved[n] = old
	if old != nil {
		t[n] = clone(old)
	}
}

// Rollback puts back every account saved (deleting those that did not
// exist) and forgets them.
func (u *AccountUndo[A]) Rollback(t Accounts[A]) {
	for n, a := range u.saved {
		if a == nil {
			delete(t, n)
		} else {
			t[n] = a
		}
	}
	u.saved = nil
}
