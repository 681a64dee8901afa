package chaintest

import (
	"maps"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// undoLog keeps what a transaction changed outside the tables (accounts,
// contracts, chain parameters), so that a failed one changes nothing: the
// tables roll back by snapshot, the rest by this log.
type undoLog struct {
	accounts  store.AccountUndo[account]  // the accounts before the change
	contracts map[antelope.Name]*contract // likewise
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
// copy now in c.accounts.
func (u *undoLog) account(c *engine, n antelope.Name) {
	u.accounts.Save(c.accounts, n, c.account(n), (*account).forChange)
}

// contract saves account n's contract before it is replaced.
func (u *undoLog) contract(c *engine, n antelope.Name) {
	if _, saved := u.contracts[n]; saved {
		return
	}
	if u.contracts == nil {
		u.contracts = map[antelope.Name]*contract{}
	}
	u.contracts[n] = c.contract(n)
}

// abiVersion saves how many ABI versions account has before one is added.
func (u *undoLog) abiVersion(c *engine, n antelope.Name) {
	if _, saved := u.abis[n]; saved {
		return
	}
	if u.abis == nil {
		u.abis = map[antelope.Name]int{}
	}
	u.abis[n] = len(c.abis[n])
}

// params saves the chain parameters before they change.
func (u *undoLog) params(c *engine) {
	if u.chain != nil {
		return
	}
	u.chain = &chainParams{params: c.params, features: maps.Clone(c.features), scheduleVersion: c.scheduleVersion, proposed: c.proposed}
}

// rollback restores everything saved.
func (u *undoLog) rollback(c *engine) {
	u.accounts.Rollback(c.accounts)
	for n, ct := range u.contracts {
		if ct == nil {
			delete(c.contracts, n)
		} else {
			c.contracts[n] = ct
		}
	}
	for n, k := range u.abis {
		c.abis[n] = c.abis[n][:k]
	}
	if p := u.chain; p != nil {
		c.params, c.features, c.scheduleVersion, c.proposed = p.params, p.features, p.scheduleVersion, p.proposed
	}
	*u = undoLog{}
}
