package exec

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// The state a test sets outside any transaction (chaintest's
// CreateAccount, SetPermission, LinkPermission, SetResources, DeployWASM,
// SetContract and SetTableRow of Chain): the chain's lock is held by the
// caller, which produces a block where the public method says so.

// CreateAccount makes account name with the given authorities, created at
// the head block's time.
func (c *Engine) CreateAccount(name antelope.Name, owner, active chain.Authority) {
	c.Accounts[name] = NewAccount(name, owner, active, c.above.HeadTime())
}

// SetPrivileged is chaintest's Chain.SetPrivileged.
func (c *Engine) SetPrivileged(acct antelope.Name, on bool) error {
	a := c.Account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	a.Privileged = on
	return nil
}

// SetPermission is chaintest's Chain.SetPermission.
func (c *Engine) SetPermission(acct, perm, parent antelope.Name, auth chain.Authority) error {
	a := c.Account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if parent == 0 && perm != nameOwner {
		parent = NameActive
	}
	delta := permissionRAM(auth)
	if old := a.Perms[perm]; old != nil {
		delta -= permissionRAM(old.Auth)
	}
	if err := a.fixtureRAM(delta); err != nil {
		return err
	}
	perms := maps.Clone(a.Perms)
	lastUsed := c.above.HeadTime().Add(500 * time.Millisecond) // created in the next block
	if old := a.Perms[perm]; old != nil {
		lastUsed = old.LastUsed
	}
	perms[perm] = &Permission{Name: perm, Parent: parent, Auth: auth, LastUsed: lastUsed}
	a.Perms = perms
	return nil
}

// LinkPermission is chaintest's Chain.LinkPermission.
func (c *Engine) LinkPermission(acct, code, action, perm antelope.Name) error {
	a := c.Account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if c.Account(code) == nil {
		return fmt.Errorf("chaintest: no account %s to link %s's permission to", code, acct)
	}
	if isPermissionAction(code, action) {
		return fmt.Errorf("chaintest: cannot link eosio::%s to a minimum permission", action)
	}
	if perm != 0 && perm != NameEosioAny && a.Perms[perm] == nil {
		return fmt.Errorf("chaintest: %s has no permission %s", acct, perm)
	}
	_, linked := a.Links[LinkKey{code, action}]
	var delta int64
	switch {
	case perm == 0 && linked:
		delta = -billableLink
	case perm != 0 && !linked:
		delta = billableLink
	}
	if err := a.fixtureRAM(delta); err != nil {
		return err
	}
	links := maps.Clone(a.Links)
	if links == nil {
		links = map[LinkKey]antelope.Name{}
	}
	if perm == 0 {
		delete(links, LinkKey{code, action})
	} else {
		links[LinkKey{code, action}] = perm
	}
	a.Links = links
	return nil
}

// SetResources is chaintest's Chain.SetResources.
func (c *Engine) SetResources(acct antelope.Name, cpuUS, netBytes int64) error {
	a := c.Account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if cpuUS < -1 || netBytes < -1 {
		return fmt.Errorf("chaintest: SetResources(%s, %d, %d): an allowance is -1 (unlimited) or at least 0", acct, cpuUS, netBytes)
	}
	a.Res = ResourceLimits{CPULimit: cpuUS, NETLimit: netBytes}
	return nil
}

// Resources is an account's CPU and NET allowance and usage (chaintest's Chain.Resources).
func (c *Engine) Resources(acct antelope.Name) (ResourceLimits, error) {
	a := c.Account(acct)
	if a == nil {
		return ResourceLimits{}, fmt.Errorf("chaintest: no account %s", acct)
	}
	return a.Res, nil
}

// DeployWASM is chaintest's Chain.DeployWASM but for the block it produces.
func (c *Engine) DeployWASM(account antelope.Name, code, abi []byte) error {
	if c.Account(account) == nil {
		c.Accounts[account] = NewAccount(account, EmptyAuthority(), CodeAuthority(account), c.above.HeadTime())
	}
	before := c.codeRAM(account)
	var u UndoLog
	if err := c.setCode(&u, account, code, c.above.HeadTime()); err != nil {
		u.rollback(c)
		return fmt.Errorf("chaintest: deploying %s: %w", account, err)
	}
	if abi != nil {
		if err := c.setABI(&u, account, abi); err != nil {
			u.rollback(c)
			return fmt.Errorf("chaintest: deploying %s: %w", account, err)
		}
	}
	// Billed as setcode and setabi bill, so that they later refund only
	// what was billed; a fixture is not held to the RAM quota.
	c.Account(account).RAMUsage += c.codeRAM(account) - before
	return nil
}

// GoContract is a contract written in Go: its ABI JSON (the tables, with
// their key_names and key_types) and its handler.
func GoContract(acct antelope.Name, abiJSON []byte, handler Handler) (*Contract, error) {
	var abi struct {
		Tables []struct {
			Name     string   `json:"name"`
			KeyNames []string `json:"key_names"`
			KeyTypes []string `json:"key_types"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return nil, fmt.Errorf("chaintest: the ABI of %s: %v", acct, err)
	}
	ct := &Contract{ABI: abiJSON, Tables: map[antelope.Name]bool{}, indexes: map[antelope.Name]tableIndexes{}, handler: handler}
	for _, t := range abi.Tables {
		n, err := antelope.ParseName(t.Name)
		if err != nil {
			return nil, fmt.Errorf("chaintest: the ABI of %s: table %q: %v", acct, t.Name, err)
		}
		ct.Tables[n] = true
		ct.indexes[n] = tableIndexes{names: t.KeyNames, types: t.KeyTypes}
	}
	return ct, nil
}

// SetContract is chaintest's Chain.SetContract but for the block it produces: ct
// (goContract) at acct.
func (c *Engine) SetContract(acct antelope.Name, ct *Contract) {
	if c.Account(acct) == nil {
		c.Accounts[acct] = NewAccount(acct, EmptyAuthority(), CodeAuthority(acct), c.above.HeadTime())
	}
	// Wasm code and a packed ABI replaced by a Go handler are refunded, as
	// setcode and setabi refund what they replace (the handler and its ABI
	// are the test's, billed nothing).
	c.Account(acct).RAMUsage -= c.codeRAM(acct)
	c.Contracts[acct] = ct
	// The state service keeps every version by the block it was set in: the
	// next block.
	c.ABIs[acct] = append(c.ABIs[acct], ABIVersion{Block: c.above.NextBlockNum(), JSON: ct.ABI})
}

// SetTableRow is chaintest's Chain.SetTableRow.
func (c *Engine) SetTableRow(code, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) {
	id := tableID{Code: code, Scope: scope, Table: table}
	if old := c.DB.Get(id, pk); old != nil {
		c.billFixture(old.Payer, -(int64(len(old.Data)) + billableRow))
	}
	if c.DB.PutRow(id, &row{PK: pk, Data: append([]byte(nil), data...), Payer: payer}) {
		c.billFixture(payer, billableTable)
	}
	c.billFixture(payer, int64(len(data))+billableRow)
	for i, key := range secondary {
		sid, kind := store.IndexTable(id, i+2), store.KindOf(key.Type())
		if old := c.DB.GetSec(sid, kind, pk); old != nil {
			c.billFixture(old.Payer, -billableSec[kind])
		}
		if c.DB.PutSec(sid, kind, &secRow{PK: pk, Key: key, Payer: payer}) {
			c.billFixture(payer, billableTable)
		}
		c.billFixture(payer, billableSec[kind])
	}
}
