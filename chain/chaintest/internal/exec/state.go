package exec

import (
	"maps"
	"slices"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// State is the state outside the tables that a block changes: what
// Rollback restores (the tables come back from the chain's saved snapshots). The accounts
// carry their RAM, and their CPU and NET allowance and usage (Res), so a
// rollback un-bills what the dropped blocks billed.
type State struct {
	Accounts        store.Accounts[Account]        // copies
	Contracts       map[antelope.Name]*Contract    // the contracts (a fork adds those it fetches)
	ABIs            map[antelope.Name][]ABIVersion // the ABI versions (likewise)
	params          []byte
	features        map[[32]byte]bool
	scheduleVersion uint32
	proposed        []antelope.Name
	globalSeq       uint64
}

// SaveState copies the state outside the tables. Accounts are copied
// (helpers change them in place); their permission and link maps are
// shared, as a transaction copies them before changing them (UndoLog) and
// helpers replace them. Contracts are replaced, never changed.
func (c *Engine) SaveState() *State {
	s := &State{Accounts: c.Accounts.Snapshot(), Contracts: maps.Clone(c.Contracts),
		ABIs: make(map[antelope.Name][]ABIVersion, len(c.ABIs)), params: c.params, features: maps.Clone(c.features),
		scheduleVersion: c.scheduleVersion, proposed: c.proposed, globalSeq: c.globalSeq}
	for n, v := range c.ABIs {
		s.ABIs[n] = slices.Clip(v) // appending copies, leaving the saved versions alone
	}
	return s
}

// RestoreState makes the state outside the tables what s was, leaving s as
// it is (a chain may roll back to the same block twice).
func (c *Engine) RestoreState(s *State) {
	c.Accounts = s.Accounts.Snapshot()
	c.Contracts = maps.Clone(s.Contracts)
	c.ABIs = make(map[antelope.Name][]ABIVersion, len(s.ABIs))
	for n, v := range s.ABIs {
		c.ABIs[n] = slices.Clip(v)
	}
	c.params, c.features, c.scheduleVersion, c.proposed = s.params, maps.Clone(s.features), s.scheduleVersion, s.proposed
	c.globalSeq = s.globalSeq
}
