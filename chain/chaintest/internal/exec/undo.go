package exec

import (
	"maps"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// UndoLog keeps what a transaction changed outside the tables (accounts,
// contracts, chain parameters), so that a failed one changes nothing: the
// tables roll back by snapshot, the rest by this log.
type UndoLog struct {
	accounts  store.AccountUndo[Account]  // the accounts before the change
	contracts map[antelope.Name]*Contract // likewise
	chain     *chainParams                // the parameters before the change
	abis      map[antelope.Name]int       // how many ABI versions the account had
}

// chainParams is the chain-wide state contracts change.
type chainParams struct {
	params          []byte
	features        map[[32]byte]bool
	scheduleVersion uint32
	proposed        []antelope.Name
}

// account saves account n before it is changed: the caller changes the
// copy now in c.Accounts.
func (u *UndoLog) account(c *Engine, n antelope.Name) {
	u.accounts.Save(c.Accounts, n, c.Account(n), (*Account).forChange)
}

// contract saves account n's contract before it is replaced.
func (u *UndoLog) contract(c *Engine, n antelope.Name) {
	if _, saved := u.contracts[n]; saved {
		return
	}
	if u.contracts == nil {
		u.contracts = map[antelope.Name]*Contract{}
	}
	u.contracts[n] = c.Contract(n)
}

// abiVersion saves how many ABI versions account has before one is added.
func (u *UndoLog) abiVersion(c *Engine, n antelope.Name) {
	if _, saved := u.abis[n]; saved {
		return
	}
	if u.abis == nil {
		u.abis = map[antelope.Name]int{}
	}
	u.abis[n] = len(c.ABIs[n])
}

// params saves the chain parameters before they change.
func (u *UndoLog) params(c *Engine) {
	if u.chain != nil {
		return
	}
	u.chain = &chainParams{params: c.params, features: maps.Clone(c.features), scheduleVersion: c.scheduleVersion, proposed: c.proposed}
}

// rollback restores everything saved.
func (u *UndoLog) rollback(c *Engine) {
	u.accounts.Rollback(c.Accounts)
	for n, ct := range u.contracts {
		if ct == nil {
			delete(c.Contracts, n)
		} else {
			c.Contracts[n] = ct
		}
	}
	for n, k := range u.abis {
		c.ABIs[n] = c.ABIs[n][:k]
	}
	if p := u.chain; p != nil {
		c.params, c.features, c.scheduleVersion, c.proposed = p.params, p.features, p.scheduleVersion, p.proposed
	}
	*u = UndoLog{}
}
